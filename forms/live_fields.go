package forms

import (
	tea "github.com/charmbracelet/bubbletea"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"
)

// Choice lists longer than longList get a window of listWindow rows and a
// filter hint; shorter ones are drawn whole, which also sidesteps huh #679
// (a windowed huh Select scrolls its preselected option to the top and
// hides those above it).
const (
	longList   = 8
	listWindow = 9
)

// about is the field's description as drawn: its light markdown as text,
// sanitised (worked out once: decorate runs on every edit).
func (s *slot) about() string {
	if s.aboutText == nil {
		t := Describe(s.f.Description)
		s.aboutText = &t
	}
	return *s.aboutText
}

// Describe is a form's or a field's description as drawn: its light
// markdown rendered as plain text (**index** reads index) and sanitised.
func Describe(description string) string {
	return SanitizeBlock(strings.TrimRight(PlainText(description), "\n"))
}

// label is the field's label as drawn.
func (s *slot) label() string { return SanitizeLine(s.f.DisplayLabel()) }

func (s *slot) charLimit() int {
	if s.f.MaxLength != nil && *s.f.MaxLength > 0 {
		return *s.f.MaxLength
	}
	return MaxString
}

func (s *slot) options() []huh.Option[string] {
	out := make([]huh.Option[string], len(s.f.Options))
	for i, o := range s.f.Options {
		out[i] = huh.NewOption(SanitizeLine(o.DisplayLabel()), o.Value)
	}
	return out
}

// placeholder falls back to a format hint so an empty field says what to type.
func (s *slot) placeholder() string {
	if s.f.Placeholder != "" {
		return SanitizeLine(s.f.Placeholder)
	}
	return formats[s.f.Format].placeholder
}

// decorate refreshes the title (required and suggestion marks), the
// description (hints, problems) and the look after a change.
func (s *slot) decorate() {
	s.live.drawing = nil
	title := s.label()
	if s.f.Required {
		title += " *"
	}
	if s.suggested {
		title += " · suggested"
	}
	desc := joinNonEmpty("\n", s.about(), s.hint())
	if s.set != nil && (title != s.title || desc != s.desc) {
		s.title, s.desc = title, desc
		s.set(title, desc)
		s.shown = nil
	}
	s.restyle()
}

// hint is the guidance under a field: its problems, one a line, marked
// so they read as problems without colour; else the kind's hint (format,
// range, count).
func (s *slot) hint() string {
	if ps := s.problems(); len(ps) > 0 {
		lines := make([]string, len(ps))
		for i, p := range ps {
			lines[i] = problemMark + SanitizeLine(p)
		}
		return strings.Join(lines, "\n")
	}
	if s.k.hint != nil {
		return s.k.hint(s)
	}
	return ""
}

// problemMark starts a problem drawn under its field.
const problemMark = "✗ "

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// EditorInstalled reports whether the editor a textarea opens on ctrl+e
// ($EDITOR, else huh's nano) is installed (BuildOptions.Editor).
var EditorInstalled = sync.OnceValue(func() bool { return editorOnPath(os.Getenv, exec.LookPath) })

func editorOnPath(getenv func(string) string, lookPath func(string) (string, error)) bool {
	name := "nano"
	if f := strings.Fields(getenv("EDITOR")); len(f) > 0 {
		name = f[0]
	}
	_, err := lookPath(name)
	return err == nil
}

// The kinds' widgets: huh's own fields bound to the slot. Leaving a field
// (its Blur, which calls the validator) confirms what it shows; validators
// never fail, as a failing one blocks even going back (huh #655, #720):
// full validation happens on submit (Normalize + Missing).

// inputWidget is one line of text (text, number, integer).
func inputWidget(s *slot) huh.Field {
	in := huh.NewInput().Key(s.f.Name).Placeholder(s.placeholder()).CharLimit(s.charLimit()).
		Validate(func(string) error { s.confirmed(); return nil })
	if l := s.live; l.suggest != nil && s.f.Type == Text {
		in.SuggestionsFunc(func() []string { return l.suggest(s.f.Name, *l.asked.Load()) }, &l.texts)
	}
	in.WithTheme(s.theme)
	in.Accessor(drawnAccess{s})
	s.set = func(t, d string) { in.Title(t).Description(d) }
	s.resync, s.key = func() { in.Accessor(drawnAccess{s}); s.shown = nil }, s.typeKey
	return s.wrap(in, nil)
}

// textareaWidget is several lines of text; ctrl+e opens an editor when
// one is installed.
func textareaWidget(s *slot) huh.Field {
	t := huh.NewText().Key(s.f.Name).Lines(4).CharLimit(s.charLimit()).ExternalEditor(s.live.editor).
		Placeholder(SanitizeLine(s.f.Placeholder)).Validate(func(string) error { s.confirmed(); return nil })
	t.WithTheme(s.theme)
	t.Accessor(drawnAccess{s})
	s.set = func(title, d string) { t.Title(title).Description(d) }
	s.resync, s.key = func() { t.Accessor(drawnAccess{s}); s.shown = nil }, s.typeKey
	return s.wrap(t, nil)
}

// confirmWidget is yes or no; it marks no choice until one is made
// (restyle), so an untouched boolean answers nothing. y and n answer and
// move on; a choice made with the arrows stays on the field (huh's
// Confirm would move on after either).
func confirmWidget(s *slot) huh.Field {
	c := huh.NewConfirm().Key(s.f.Name).Affirmative("Yes").Negative("No").
		Validate(func(bool) error { s.confirmed(); return nil })
	c.WithTheme(s.theme)
	c.Accessor(boolAccess{s})
	s.set = func(t, d string) { c.Title(t).Description(d) }
	s.yesNo = true
	s.key = func(k tea.KeyMsg, forward func(tea.Msg) tea.Cmd) tea.Cmd {
		if y := strings.ToLower(k.String()); y == "y" || y == "n" {
			boolAccess{s}.Set(y == "y")
			return s.live.move(true)
		}
		forward(k)
		return nil
	}
	return s.wrap(c, nil)
}

// noneLabel is the first option of an optional select: choosing it takes
// the answer back (huh's Select always has a selection).
const noneLabel = "— none —"

func selectWidget(s *slot) huh.Field {
	opts := s.options()
	if !s.f.Required {
		opts = append([]huh.Option[string]{huh.NewOption(noneLabel, "")}, opts...)
	}
	sel := huh.NewSelect[string]()
	sel.WithTheme(s.theme) // before the options: without one, huh builds a theme to measure them
	sel.Key(s.f.Name).Options(opts...)
	if len(opts) > longList {
		sel.Height(listWindow)
	} else {
		s.keys = shortListKeys
	}
	sel.Accessor(textAccess{s})
	s.set = func(t, d string) { sel.Title(t).Description(d) }
	return s.wrap(sel, func() {
		if v, ok := sel.Hovered(); ok {
			textAccess{s}.Set(v) // moving past a select chooses what it shows
		}
		dropFilter(sel)
		sel.Accessor(textAccess{s}) // the cursor back on the choice in the whole list
		sel.Update(nil)             // and its window on it
		s.confirmed()
	})
}

func multiselectWidget(s *slot) huh.Field {
	m := huh.NewMultiSelect[string]()
	m.WithTheme(s.theme)
	m.Key(s.f.Name).Options(s.options()...).Filterable(len(s.f.Options) > longList)
	if len(s.f.Options) > longList {
		m.Height(listWindow)
	}
	m.Accessor(picksAccess{s})
	s.set = func(t, d string) { m.Title(t).Description(d) }
	return s.wrap(m, func() { dropFilter(m); s.confirmed() })
}

// dropFilter ends a list's filter, then clears it (huh's esc, twice):
// huh v1.0.0 keeps a filter after the list loses focus, drawing "/text"
// in place of its title and blank rows for the options filtered out.
func dropFilter(f huh.Field) {
	f.Update(tea.KeyMsg{Type: tea.KeyEsc})
	f.Update(tea.KeyMsg{Type: tea.KeyEsc})
}

// field is a huh field whose drawing is kept until something it shows
// changes: huh draws every field of a group on every message, which a key
// typed in a long form cannot afford (docs/performance.md). Only the
// focused field changes on a message; the slot's hooks (title,
// description, look, text) drop the drawing for the others. leave, when
// set, runs as the user leaves the field (huh has no such hook for its
// lists; its other fields confirm through their validator).
type field struct {
	huh.Field
	s       *slot
	leave   func()
	focused bool
}

// wrap makes f the slot's field.
func (s *slot) wrap(f huh.Field, leave func()) huh.Field {
	w := &field{Field: f, s: s, leave: leave}
	s.field = w
	return w
}

func (f *field) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f.focused {
		f.s.shown = nil
	}
	_, cmd := f.Field.Update(msg)
	return f, cmd
}

func (f *field) View() string {
	if f.s.shown == nil {
		v := f.Field.View()
		if f.leave != nil {
			v = trimBlankRows(v)
		}
		f.s.shown = &v
	}
	return *f.s.shown
}

// trimBlankRows drops the empty rows that end a list: huh v1.0.0 scrolls a
// windowed list to its cursor and pads the window below the last option
// (#679).
func trimBlankRows(v string) string {
	lines := strings.Split(v, "\n")
	for len(lines) > 1 && strings.Trim(ansi.Strip(lines[len(lines)-1]), " ┃│") == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

func (f *field) Focus() tea.Cmd {
	f.focused, f.s.shown = true, nil
	return f.Field.Focus()
}

func (f *field) Blur() tea.Cmd {
	if f.leave != nil && !f.s.live.jumping {
		f.leave()
	}
	f.focused, f.s.shown = false, nil
	return f.Field.Blur()
}

func (f *field) WithWidth(w int) huh.Field        { f.s.shown = nil; f.Field.WithWidth(w); return f }
func (f *field) WithHeight(h int) huh.Field       { f.s.shown = nil; f.Field.WithHeight(h); return f }
func (f *field) WithTheme(t *huh.Theme) huh.Field { f.s.shown = nil; f.Field.WithTheme(t); return f }
