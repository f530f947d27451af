package forms

import (
	"reflect"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// keyMap is huh's keymap less the keys that move between fields: huh
// moves the focus with a message its field sends back, so keys read in the
// same burst as a tab (pasted text, fast typing) would reach the field
// being left. Live moves the focus itself, at once (Update). A yes/no
// takes yes on the left, no on the right, and flips on space.
var keyMap = func() *huh.KeyMap {
	k := huh.NewDefaultKeyMap()
	for _, b := range []*key.Binding{&k.Input.Prev, &k.Input.Next, &k.Input.Submit,
		&k.Text.Prev, &k.Text.Next, &k.Text.Submit, &k.Select.Prev, &k.Select.Next, &k.Select.Submit,
		&k.MultiSelect.Prev, &k.MultiSelect.Next, &k.MultiSelect.Submit, &k.Note.Prev, &k.Note.Next, &k.Note.Submit,
		&k.Confirm.Prev, &k.Confirm.Next, &k.Confirm.Submit} {
		*b = key.NewBinding() // no keys: never matches
	}
	// huh names Accept and Reject by the y/n keys its view handles (the
	// slot's key handler does), so the arrows are named on Toggle.
	k.Confirm.Accept = key.NewBinding(key.WithKeys("left", "h"))
	k.Confirm.Reject = key.NewBinding(key.WithKeys("right", "l"))
	k.Confirm.Toggle = key.NewBinding(key.WithKeys(" "), key.WithHelp("←/→", "choose"))
	return k
}()

// shortListKeys are keyMap for a select short enough to be seen whole:
// no filter (huh's Select has no option to turn it off).
var shortListKeys = func() *huh.KeyMap {
	k := *keyMap
	k.Select.Filter = key.NewBinding()
	return &k
}()

// Update forwards a message to the form. Tab and enter move to the next
// field (past the last, the form is submitted), shift+tab to the one
// before; other keys go to the focused field, through its slot's key
// handler when its widget set one.
//
// Messages that are not the form's — a spinner's tick, the screen's own,
// a window size (Resize says it) — are ignored without drawing anything
// anew.
func (l *Live) Update(msg tea.Msg) tea.Cmd {
	if _, size := msg.(tea.WindowSizeMsg); size || !ownMessage(msg) || l.form.State != huh.StateNormal {
		return nil
	}
	l.drawing = nil
	s, _, _ := l.focused()
	k, isKey := msg.(tea.KeyMsg)
	if !isKey || s == nil {
		_, cmd := l.form.Update(msg)
		return cmd
	}
	if !claims(s.field, k) {
		switch k.Type {
		case tea.KeyTab, tea.KeyEnter:
			return l.move(true)
		case tea.KeyShiftTab:
			return l.move(false)
		}
	}
	forward := func(m tea.Msg) tea.Cmd { _, c := l.form.Update(m); return c }
	if s.key != nil {
		return s.key(k, forward)
	}
	return forward(k)
}

// claims reports that the focused field takes the key itself (a
// multi-select's enter while it filters).
func claims(f huh.Field, k tea.KeyMsg) bool {
	for _, b := range f.KeyBinds() {
		if b.Enabled() && key.Matches(k, b) {
			return true
		}
	}
	return false
}

// move takes the focus to the next field or the one before, turning the
// page past a page's edge; moving on from the last field submits.
func (l *Live) move(forward bool) tea.Cmd {
	s, page, at := l.focused()
	if s == nil {
		return nil
	}
	switch {
	case forward && at < len(l.pages[page])-1:
		return l.form.NextField()
	case !forward && at > 0:
		return l.form.PrevField()
	case !forward && page == 0:
		return nil
	}
	defer l.titles() // problems left behind are counted on the page shown
	cmd := s.field.Blur()
	if forward {
		return tea.Batch(cmd, l.form.NextGroup())
	}
	return tea.Batch(cmd, l.form.PrevGroup())
}

// jump puts the focus on field at of page without confirming the fields
// passed on the way; a page passed keeps its focus on its last field, where
// shift+tab comes back to it.
func (l *Live) jump(page, at int) {
	l.jumping = true
	defer func() { l.jumping = false }()
	for p := range page {
		for range len(l.pages[p]) - 1 {
			l.form.NextField()
		}
		l.form.GetFocusedField().Blur()
		l.form.NextGroup()
	}
	for range at {
		l.form.NextField()
	}
}

// KeyBinds are the keys the focused field takes now beyond moving between
// fields and submitting, which are the screen's to name: a list's up and
// down, its filter, a toggle, a new line. huh's own help line is off; the
// screen draws these in its one hint line. Disabled keys are left out.
func (l *Live) KeyBinds() []key.Binding {
	f := l.form.GetFocusedField()
	if f == nil {
		return nil
	}
	var out []key.Binding
	for _, b := range f.KeyBinds() {
		if b.Enabled() && len(b.Keys()) > 0 && !slices.ContainsFunc(b.Keys(), func(k string) bool {
			return k == "tab" || k == "shift+tab" || k == "enter"
		}) {
			out = append(out, b)
		}
	}
	return out
}

// ownPackages are where the messages a form acts on come from: keys,
// huh's own, the inputs of the widgets huh builds on. The cursor's blink
// is not among them: the cursor stays drawn, and an idle form draws
// nothing anew.
var ownPackages = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/huh",
	"github.com/charmbracelet/bubbles/textarea",
	"github.com/charmbracelet/bubbles/textinput",
	"github.com/charmbracelet/bubbles/viewport",
}

// ownMessage reports a message the form may act on. Anything else (a
// screen forwards every message it gets) would only cost a redraw of the
// form: huh updates every field on every message.
func ownMessage(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pkg := t.PkgPath()
	for _, own := range ownPackages {
		if pkg == own || strings.HasPrefix(pkg, own+"/") {
			return true
		}
	}
	return false
}
