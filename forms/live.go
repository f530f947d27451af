package forms

import (
	"fmt"
	"strings"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// BuildOptions tune a live form.
type BuildOptions struct {
	Width  int
	Editor bool // offer ctrl+e in textareas (see EditorInstalled)
	// Suggest, when set, offers values for a text field as it is typed
	// (an MCP server's completions), given every text field's text; huh
	// calls it off the UI goroutine, with a copy.
	Suggest func(field string, texts map[string]string) []string
	// Focus names the field the form starts on (a draft's, where the user
	// left off); "" or a field not asked is the first.
	Focus string
}

// PageSize keeps a keystroke cheap: huh re-renders the whole current
// group on every key (docs/performance.md).
const PageSize = 4

// Live is a huh form bound to a definition: one huh group per page of
// PageSize fields, huh's own fields bound to heap slots through
// accessors, so values outlive copies of a value-receiver Bubble Tea model
// and can be read after every Update.
type Live struct {
	def       Definition
	slots     []*slot
	pages     [][]*slot // the asked fields, a page (huh group) at a time
	groups    []*huh.Group
	form      *huh.Form
	width     int  // 0: huh's own
	maxHeight int  // 0: none; a taller page scrolls inside it
	editor    bool // textareas offer an external editor
	base      *huh.Theme
	unfocused bool    // the screen's focus is elsewhere (SetFocused)
	jumping   bool    // moving the focus for the screen, not the user: nothing is confirmed
	drawing   *string // the form as View last drew it, until something changes
	fitted    *slot   // the field whose description fit cut last
	suggest   func(field string, texts map[string]string) []string
	// texts is every text field's text for suggest, as of the last edit;
	// asked is the same, for the goroutine huh calls suggest on.
	texts map[string]string
	asked atomic.Pointer[map[string]string]
}

// Build makes a live form. Fields in supplied are not asked. Each asked
// field starts from draft if the draft names it, else from prefill (drawn
// as a suggestion), else empty. draft is what Draft returned earlier.
func Build(def Definition, supplied, prefill, draft Values, opts BuildOptions) *Live {
	l := &Live{def: def, width: opts.Width, editor: opts.Editor, base: defaultTheme(), suggest: opts.Suggest}
	for _, f := range def.Fields {
		if _, known := supplied[f.Name]; known {
			continue
		}
		s := newSlot(l, f)
		if v, ok := draft[f.Name]; ok {
			s.load(v, true)
		} else if v, ok := prefill[f.Name]; ok {
			s.load(v, false)
			_, s.suggested = s.k.value(s)
		}
		l.slots = append(l.slots, s)
	}
	for i := 0; i < len(l.slots); i += PageSize {
		l.pages = append(l.pages, l.slots[i:min(i+PageSize, len(l.slots))])
	}
	l.noteTexts()
	l.build()
	if page, at, ok := l.position(opts.Focus); ok && (page > 0 || at > 0) {
		l.jump(page, at)
	}
	for _, s := range l.slots {
		s.snapshot()
	}
	return l
}

// position is where the named field is asked: its page and its place on
// it; ok is false when it is not asked.
func (l *Live) position(name string) (page, at int, ok bool) {
	for p, slots := range l.pages {
		for i, s := range slots {
			if s.f.Name == name {
				return p, i, true
			}
		}
	}
	return 0, 0, false
}

// build makes the huh form: a group per page, or a note when nothing is
// left to ask. huh's help line is off: the screen draws one hint line,
// with the focused field's own keys (KeyBinds) among its own.
func (l *Live) build() {
	l.groups = nil
	for i, page := range l.pages {
		fields := make([]huh.Field, len(page))
		for j, s := range page {
			s.quiet = true // huh's Select writes its first option on its own
			fields[j] = s.k.widget(s)
			s.quiet = false
			s.title, s.desc = "", "" // a new field: decorate sets both
			s.decorate()
		}
		g := huh.NewGroup(fields...)
		if i == 0 && l.def.Description != "" {
			g.Description(Describe(l.def.Description))
		}
		l.groups = append(l.groups, g)
	}
	if len(l.pages) == 0 {
		l.groups = []*huh.Group{huh.NewGroup(huh.NewNote().Title("Nothing left to ask").
			Description("Every required detail is already known."))}
	}
	l.form = huh.NewForm(l.groups...).WithTheme(l.base).WithKeyMap(keyMap).
		WithShowHelp(false).WithShowErrors(false)
	for _, s := range l.slots {
		if s.keys != nil {
			s.field.WithKeyMap(s.keys)
		}
	}
	l.form.WithWidth(l.fieldWidth())
	l.resync()
	l.titles()
	l.form.GetFocusedField().Focus() // an embedded form has no focused field until it is (huh #421); huh's Init would draw every page
	l.drawing = nil
	if l.unfocused {
		l.unfocused = false
		l.SetFocused(false)
	}
}

// titles sets each page's title: the form's, its page mark when there
// are several, and how many fields of the other pages show a problem.
func (l *Live) titles() {
	title := PlainLine(l.def.Title)
	if len(l.slots) == 1 && strings.EqualFold(strings.TrimSpace(l.slots[0].f.DisplayLabel()), strings.TrimSpace(l.def.Title)) {
		title = "" // the one question says it, with its marks
	}
	for i, g := range l.groups {
		t := title
		if len(l.pages) > 1 {
			t = joinNonEmpty(" ", t, lipgloss.NewStyle().Faint(true).Render(fmt.Sprintf("(%d/%d)", i+1, len(l.pages))), l.unfixed(i))
		}
		g.Title(t)
	}
}

// unfixed says how many fields of the other pages show a problem, so that
// a page turned past them does not hide them ("· 2 to fix on page 1").
func (l *Live) unfixed(page int) string {
	n, where := 0, []string(nil)
	for p, slots := range l.pages {
		k := 0
		for _, s := range slots {
			if p != page && len(s.problems()) > 0 {
				k++
			}
		}
		if k > 0 {
			n, where = n+k, append(where, fmt.Sprint(p+1))
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("· %d to fix on %s %s", n, Plural(len(where), "page", "pages"), joinAnd(where))
}

// Init focuses the field on screen: call it whenever the form is
// installed (it starts the cursor's blink).
func (l *Live) Init() tea.Cmd {
	l.drawing = nil
	if f := l.form.GetFocusedField(); f != nil && l.form.State == huh.StateNormal && !l.unfocused {
		return f.Focus()
	}
	return nil
}

// Submitted reports that the user moved past the last field of the last
// page: the answer is ready for review.
func (l *Live) Submitted() bool { return l.form.State == huh.StateCompleted }

// Aborted reports that the form was quit (huh's quit key): the screen
// builds it again from its draft.
func (l *Live) Aborted() bool { return l.form.State == huh.StateAborted }

// Definition is the definition the form was built from.
func (l *Live) Definition() Definition { return l.def }

// Values returns the current values of the asked fields that have one,
// typed per field (numbers parsed). Number text that does not parse is
// left out and reported by Problems. Unconfirmed suggestions are included:
// they are what the user sees.
func (l *Live) Values() Values {
	out := Values{}
	for _, s := range l.slots {
		if v, ok := s.value(); ok {
			out[s.f.Name] = v
		}
	}
	return out
}

// Problems lists number fields whose text does not parse, with paths
// "/values/<name>", so a submit can show them next to Normalize's.
func (l *Live) Problems() []Problem {
	var p problems
	for _, s := range l.slots {
		if msg := s.problem(); msg != "" {
			p.add(ptr("/values", s.f.Name), "%s: %s", s.f.DisplayLabel(), msg)
		}
	}
	return p.result()
}

// RawText returns the raw text of every text-like field (text, textarea,
// number, integer), including number text that does not parse.
func (l *Live) RawText() map[string]string {
	out := map[string]string{}
	for _, s := range l.slots {
		if s.k.typed {
			out[s.f.Name] = s.text
		}
	}
	return out
}

// Draft returns what to save as the draft; Build accepts it back as draft
// and restores exactly what the user saw. Encoding: a field appears once
// the user edited or confirmed it (an empty value included, so a cleared
// prefill stays cleared). text, textarea and select hold a string; number
// and integer hold their raw text as a string ("12a" survives); boolean a
// bool; multiselect a []string. Unconfirmed suggestions are left out so
// they are drawn as suggestions again.
func (l *Live) Draft() Values {
	out := Values{}
	for _, s := range l.slots {
		if !s.touched {
			continue
		}
		if v, ok := s.k.draft(s); ok {
			out[s.f.Name] = v
		}
	}
	return out
}

// Edited reports that the user changed something since the form was drawn:
// a value differs, or a suggestion was confirmed.
func (l *Live) Edited() bool {
	for _, s := range l.slots {
		if s.changed() {
			return true
		}
	}
	return false
}

func (l *Live) slot(name string) *slot {
	for _, s := range l.slots {
		if s.f.Name == name {
			return s
		}
	}
	return nil
}

// focused is the slot of the focused field and where it is: its page and
// its place on the page.
func (l *Live) focused() (s *slot, page, at int) {
	f := l.form.GetFocusedField()
	for p, slots := range l.pages {
		for i, s := range slots {
			if s.field == f {
				return s, p, i
			}
		}
	}
	return nil, 0, 0
}

// Focused is the name of the field with the focus ("" when none).
func (l *Live) Focused() string {
	if s, _, _ := l.focused(); s != nil {
		return s.f.Name
	}
	return ""
}

// noteTexts keeps every text field's text for Suggest: a new map, so the
// one huh's call holds never changes under it.
func (l *Live) noteTexts() {
	if l.suggest == nil {
		return
	}
	texts := l.RawText()
	l.texts = texts
	l.asked.Store(&texts)
}
