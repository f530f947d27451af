package forms

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// Choice lists longer than longList get a window of listWindow rows and a
// filter hint; shorter ones are drawn whole, which also sidesteps huh #679
// (a windowed huh Select scrolls its preselected option to the top and
// hides those above it).
const (
	longList   = 8
	listWindow = 9
)

// build makes the huh field for the slot. Validators never fail: huh lets a
// failing validator block navigation, even going back (#655, #720), so they
// only record that the user moved past the field. Full validation happens on
// submit (Normalize + Missing).
func (s *slot) build() huh.Field {
	name, label := s.f.Name, SanitizeLine(s.f.DisplayLabel())
	ok := func() { s.confirmed() }
	s.title, s.desc = "", "" // a new field: decorate draws both
	switch s.f.Type {
	case Textarea:
		t := huh.NewText()
		t.WithTheme(s.theme) // first: later setters draw with it
		t.ExternalEditor(s.live.editor)
		t.Key(name).Title(label).Lines(4).CharLimit(s.charLimit()).
			Placeholder(SanitizeLine(s.f.Placeholder)).
			Validate(func(string) error { ok(); return nil })
		t.Accessor(textAccess{s})
		s.setTitle, s.setDesc = func(v string) { t.Title(v) }, func(v string) { t.Description(v) }
		s.field, s.resync = t, func() { t.Accessor(textAccess{s}) }
		return t
	case Boolean:
		c := huh.NewConfirm()
		c.WithTheme(s.theme)
		c.Key(name).Title(label).Affirmative("Yes").Negative("No").
			Validate(func(bool) error { ok(); return nil })
		c.Accessor(boolAccess{s})
		s.setTitle, s.setDesc = func(v string) { c.Title(v) }, func(v string) { c.Description(v) }
		return c
	case Select:
		if len(s.f.Options) > longList {
			l := newList(s)
			s.setTitle, s.setDesc = func(v string) { l.title = v }, func(v string) { l.desc = v }
			return l.WithTheme(s.theme)
		}
		sel := huh.NewSelect[string]()
		sel.WithTheme(s.theme) // Options draws them: with huh's own theme otherwise
		sel.Key(name).Title(label).Options(s.options()...).
			Validate(func(string) error { ok(); return nil })
		sel.Accessor(textAccess{s})
		s.setTitle, s.setDesc = func(v string) { sel.Title(v) }, func(v string) { sel.Description(v) }
		return sel
	case Multiselect:
		m := huh.NewMultiSelect[string]()
		m.WithTheme(s.theme)
		m.Key(name).Title(label).Options(s.options()...).
			Filterable(len(s.f.Options) > longList).
			Validate(func([]string) error { ok(); return nil })
		if s.f.MaxItems != nil && *s.f.MaxItems > 0 {
			m.Limit(*s.f.MaxItems)
		}
		if len(s.f.Options) > longList {
			m.Height(listWindow + 2)
		}
		m.Accessor(picksAccess{s})
		s.setTitle, s.setDesc = func(v string) { m.Title(v) }, func(v string) { m.Description(v) }
		return m
	}
	// text, number, integer: one line.
	in := huh.NewInput()
	in.WithTheme(s.theme)
	in.Key(name).Title(label).CharLimit(s.charLimit()).
		Placeholder(s.placeholder()).
		Validate(func(string) error { ok(); return nil })
	in.Accessor(textAccess{s})
	s.setTitle, s.setDesc = func(v string) { in.Title(v) }, func(v string) { in.Description(v) }
	s.field, s.resync = in, func() { in.Accessor(textAccess{s}) }
	return in
}

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
	switch s.f.Format {
	case "date":
		return "YYYY-MM-DD"
	case "date-time":
		return "YYYY-MM-DDThh:mm:ssZ"
	case "email":
		return "name@example.com"
	case "uri":
		return "https://…"
	}
	return ""
}

// decorate refreshes the title (required and suggestion marks), the
// description (hints, live problems) and the theme after a change.
func (s *slot) decorate() {
	if s.setTitle == nil {
		return
	}
	title := SanitizeLine(s.f.DisplayLabel())
	if s.f.Required {
		title += " *"
	}
	if s.suggested {
		title += " · suggested"
	}
	desc := joinNonEmpty("\n", SanitizeBlock(s.f.Description), s.hint())
	if title != s.title {
		s.title = title
		s.setTitle(title)
	}
	if desc != s.desc {
		s.desc = desc
		s.setDesc(desc)
	}
	if s.theme != s.live.base && s.muted != s.suggested {
		if s.suggested {
			*s.theme = *s.live.muted
		} else {
			*s.theme = *s.live.base
		}
		s.muted = s.suggested
	}
}

// hint is the one-line guidance under a field: format, range, count, or
// what is wrong with the number text typed so far.
func (s *slot) hint() string {
	if p := s.numberProblem(); p != "" {
		return p
	}
	switch s.f.Type {
	case Text, Textarea:
		return joinNonEmpty(" · ", formatHint(s.f.Format), lengthHint(s.f))
	case Number, Integer:
		return rangeHint(s.f)
	case Select:
		if len(s.f.Options) > longList {
			return fmt.Sprintf("%d options, / to filter", len(s.f.Options))
		}
	case Multiselect:
		return countHint(s.f, len(s.picks))
	}
	return ""
}

func formatHint(format string) string {
	switch format {
	case "date":
		return "date, YYYY-MM-DD"
	case "date-time":
		return "date and time, e.g. 2026-05-01T09:00:00Z"
	case "email":
		return "email address"
	case "uri":
		return "web address (URI)"
	}
	return ""
}

func lengthHint(f Field) string {
	switch {
	case f.MinLength != nil && f.MaxLength != nil:
		return fmt.Sprintf("%d–%d characters", *f.MinLength, *f.MaxLength)
	case f.MinLength != nil:
		return fmt.Sprintf("at least %d characters", *f.MinLength)
	case f.MaxLength != nil:
		return fmt.Sprintf("at most %d characters", *f.MaxLength)
	}
	return ""
}

func rangeHint(f Field) string {
	kind := pick(f.Type == Integer, "whole number", "number")
	switch {
	case f.Min != nil && f.Max != nil:
		return fmt.Sprintf("%s, %s–%s", kind, fmtNum(*f.Min), fmtNum(*f.Max))
	case f.Min != nil:
		return fmt.Sprintf("%s, at least %s", kind, fmtNum(*f.Min))
	case f.Max != nil:
		return fmt.Sprintf("%s, at most %s", kind, fmtNum(*f.Max))
	}
	return kind
}

func countHint(f Field, n int) string {
	switch {
	case f.MaxItems != nil:
		return fmt.Sprintf("%d of at most %d selected", n, *f.MaxItems)
	case f.MinItems != nil:
		return fmt.Sprintf("%d selected, at least %d", n, *f.MinItems)
	}
	return fmt.Sprintf("%d selected", n)
}

// suggestionTheme draws values faint and italic so a prefill reads as a
// proposal, not as something the user said.
func suggestionTheme(base *huh.Theme) *huh.Theme {
	t := *base
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.TextInput.Text = fs.TextInput.Text.Faint(true).Italic(true)
		fs.SelectedOption = fs.SelectedOption.Faint(true).Italic(true)
		fs.FocusedButton = fs.FocusedButton.Faint(true)
	}
	return &t
}

func pageMark(n, total int) string {
	return lipgloss.NewStyle().Faint(true).Render(fmt.Sprintf("(%d/%d)", n, total))
}

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
