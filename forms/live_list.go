package forms

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// list is a single-choice field for long option lists. huh's Select, once
// given a height, scrolls its preselected option to the top of the window on
// every update and hides the options above it (huh #679); a prefilled choice
// then shows without its neighbours. list keeps the cursor in the middle of
// a fixed window instead, and filters with "/" like huh.
type list struct {
	s        *slot
	opts     []huh.Option[string]
	shown    []int // indexes into opts that pass the filter
	cursor   int   // index into shown
	filter   string
	filterOn bool
	focused  bool
	width    int
	theme    *huh.Theme
	keys     huh.SelectKeyMap
	title    string
	desc     string
}

func newList(s *slot) *list {
	l := &list{s: s, opts: s.options(), keys: huh.NewDefaultKeyMap().Select}
	l.refilter()
	for i, idx := range l.shown {
		if l.opts[idx].Value == s.text {
			l.cursor = i
		}
	}
	return l
}

func (l *list) refilter() {
	l.shown = l.shown[:0]
	needle := strings.ToLower(l.filter)
	for i, o := range l.opts {
		if needle == "" || strings.Contains(strings.ToLower(o.Key), needle) {
			l.shown = append(l.shown, i)
		}
	}
	l.cursor = min(l.cursor, max(len(l.shown)-1, 0))
}

// choose writes the option under the cursor to the slot, as huh does when
// the user moves away from a select.
func (l *list) choose() {
	if len(l.shown) > 0 {
		textAccess{l.s}.Set(l.opts[l.shown[l.cursor]].Value)
	}
}

func (l *list) Init() tea.Cmd { return nil }

func (l *list) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !l.focused {
		return l, nil
	}
	if l.filterOn {
		switch {
		case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
			l.filter += string(k.Runes)
			l.refilter()
			return l, nil
		case k.Type == tea.KeyBackspace:
			if r := []rune(l.filter); len(r) > 0 {
				l.filter = string(r[:len(r)-1])
				l.refilter()
			}
			return l, nil
		case key.Matches(k, l.keys.SetFilter):
			l.filterOn = false
			return l, nil
		}
	}
	page := listWindow / 2
	switch {
	case key.Matches(k, l.keys.Filter):
		l.filterOn = true
	case k.String() == "esc" && l.filter != "":
		l.filter = ""
		l.refilter()
	case key.Matches(k, l.keys.Up):
		l.move(-1)
	case key.Matches(k, l.keys.Down):
		l.move(1)
	case key.Matches(k, l.keys.HalfPageUp):
		l.move(-page)
	case key.Matches(k, l.keys.HalfPageDown):
		l.move(page)
	case key.Matches(k, l.keys.GotoTop):
		l.move(-len(l.shown))
	case key.Matches(k, l.keys.GotoBottom):
		l.move(len(l.shown))
	case key.Matches(k, l.keys.Prev):
		l.choose()
		l.s.confirmed()
		return l, huh.PrevField
	case key.Matches(k, l.keys.Next, l.keys.Submit):
		if len(l.shown) == 0 {
			return l, nil
		}
		l.filterOn = false
		l.choose()
		l.s.confirmed()
		return l, huh.NextField
	}
	return l, nil
}

func (l *list) move(by int) {
	if len(l.shown) == 0 {
		return
	}
	l.cursor = max(0, min(len(l.shown)-1, l.cursor+by))
	l.choose()
}

// window is the first shown index drawn: the cursor sits in the middle
// unless the list's ends are in view.
func (l *list) window() int {
	return max(0, min(l.cursor-listWindow/2, len(l.shown)-listWindow))
}

func (l *list) View() string {
	st := &l.theme.Blurred
	if l.focused {
		st = &l.theme.Focused
	}
	inner := max(l.width-st.Base.GetHorizontalFrameSize(), 1)
	var b strings.Builder
	switch {
	case l.filterOn:
		b.WriteString(st.Title.Render("/" + l.filter + "▏"))
	case l.filter != "":
		b.WriteString(st.Description.Render("/" + l.filter))
	default:
		b.WriteString(st.Title.Render(l.title))
	}
	if l.desc != "" {
		b.WriteString("\n" + st.Description.Render(l.desc))
	}
	selector := st.SelectSelector.String()
	pad := strings.Repeat(" ", lipgloss.Width(selector))
	top := l.window()
	for row := 0; row < listWindow; row++ {
		b.WriteString("\n")
		i := top + row
		if i >= len(l.shown) {
			if row == 0 {
				b.WriteString(pad + st.TextInput.Placeholder.Render("No matches"))
			}
			continue
		}
		label := truncate(l.opts[l.shown[i]].Key, inner-lipgloss.Width(pad))
		if i == l.cursor {
			b.WriteString(selector + st.SelectedOption.Render(label))
		} else {
			b.WriteString(pad + st.UnselectedOption.Render(label))
		}
	}
	return st.Base.Width(l.width).Render(b.String())
}

// truncate fits s in n cells, measured as lipgloss measures them.
func truncate(s string, n int) string {
	if n < 1 {
		return s
	}
	return ansi.Truncate(s, n, "…")
}

func (l *list) Focus() tea.Cmd { l.focused = true; return nil }

func (l *list) Blur() tea.Cmd {
	l.focused, l.filterOn = false, false
	return nil
}

func (l *list) Error() error { return nil }
func (l *list) Skip() bool   { return false }
func (l *list) Zoom() bool   { return false }

func (l *list) KeyBinds() []key.Binding {
	if l.filterOn {
		return []key.Binding{l.keys.Up, l.keys.Down, l.keys.SetFilter, l.keys.Submit}
	}
	binds := []key.Binding{l.keys.Up, l.keys.Down, l.keys.Filter}
	if l.filter != "" {
		binds = append(binds, l.keys.ClearFilter)
	}
	return append(binds, l.keys.Prev, l.keys.Next, l.keys.Submit)
}

func (l *list) WithTheme(t *huh.Theme) huh.Field {
	if l.theme == nil {
		l.theme = t
	}
	return l
}

func (l *list) WithKeyMap(k *huh.KeyMap) huh.Field {
	if k != nil {
		l.keys = k.Select
		l.keys.ClearFilter.SetEnabled(true) // shown only while a filter is set
	}
	return l
}

func (l *list) WithAccessible(bool) huh.Field { return l }
func (l *list) WithWidth(w int) huh.Field     { l.width = w; return l }
func (l *list) WithHeight(int) huh.Field      { return l }

func (l *list) WithPosition(p huh.FieldPosition) huh.Field {
	l.keys.Prev.SetEnabled(!p.IsFirst())
	l.keys.Next.SetEnabled(!p.IsLast())
	l.keys.Submit.SetEnabled(p.IsLast())
	return l
}

func (l *list) GetKey() string { return l.s.f.Name }
func (l *list) GetValue() any  { return l.s.text }
func (l *list) Run() error     { return huh.Run(l) }

// RunAccessible asks for the option's number on plain lines.
func (l *list) RunAccessible(w io.Writer, r io.Reader) error {
	_, _ = fmt.Fprintln(w, l.title)
	for i, o := range l.opts {
		_, _ = fmt.Fprintf(w, "%d. %s\n", i+1, o.Key)
	}
	var n int
	if _, err := fmt.Fscanln(r, &n); err != nil {
		return err
	}
	if n >= 1 && n <= len(l.opts) {
		textAccess{l.s}.Set(l.opts[n-1].Value)
		l.s.confirmed()
	}
	return nil
}
