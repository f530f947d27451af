package forms

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// yesNo is a boolean field. huh's Confirm always marks one of its
// buttons, so a question the user only tabbed past would read, and be
// sent, as "No". yesNo marks neither until the user chooses: y or n
// (which also move on, as in huh), ← for Yes and → for No, space to flip
// (from nothing to Yes). Moving past it without choosing leaves it
// unanswered. A prefilled value is marked as a suggestion and, like any
// suggestion, is the user's once they move past it.
type yesNo struct {
	fieldFrame
	keys  yesNoKeys
	title string
	about string   // the description
	hint  string   // under it: its problems
	head  wrapping // title, about and hint wrapped (and cut to the height), kept
}

// yesNoKeys are huh's Confirm bindings, with its toggle split in two:
// a yes/no with nothing chosen has nothing to toggle from.
type yesNoKeys struct {
	huh.ConfirmKeyMap
	left, right, flip key.Binding
}

func newYesNoKeys(k huh.ConfirmKeyMap) yesNoKeys {
	return yesNoKeys{
		ConfirmKeyMap: k,
		left:          key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "choose")),
		right:         key.NewBinding(key.WithKeys("right", "l")),
		flip:          key.NewBinding(key.WithKeys(" ")),
	}
}

func newYesNo(s *slot) *yesNo {
	return &yesNo{fieldFrame: fieldFrame{s: s}, keys: newYesNoKeys(huh.NewDefaultKeyMap().Confirm)}
}

// choose answers v: the user's own choice.
func (y *yesNo) choose(v bool) { boolAccess{y.s}.Set(v) }

func (y *yesNo) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !y.focused {
		return y, nil
	}
	switch {
	case key.Matches(k, y.keys.Accept):
		y.choose(true)
		y.s.confirmed()
		return y, huh.NextField
	case key.Matches(k, y.keys.Reject):
		y.choose(false)
		y.s.confirmed()
		return y, huh.NextField
	case key.Matches(k, y.keys.left):
		y.choose(true)
	case key.Matches(k, y.keys.right):
		y.choose(false)
	case key.Matches(k, y.keys.flip):
		y.choose(!y.s.has || !y.s.on)
	case key.Matches(k, y.keys.Prev):
		y.s.confirmed()
		return y, huh.PrevField
	case key.Matches(k, y.keys.Next, y.keys.Submit):
		y.s.confirmed()
		return y, huh.NextField
	}
	return y, nil
}

// View draws as huh's Confirm does — title, description, a blank line, the
// buttons centred under them — with the chosen button marked, if any.
func (y *yesNo) View() string {
	st := y.styles()
	yes, no := st.BlurredButton, st.BlurredButton
	if y.s.has && y.s.on {
		yes = st.FocusedButton
	} else if y.s.has {
		no = st.FocusedButton
	}
	buttons := lipgloss.JoinHorizontal(lipgloss.Center, yes.Render("Yes"), no.Render("No"))
	var b strings.Builder
	// the buttons keep their rows and the blank line above them
	b.WriteString(y.head.head(st, wrapKey{title: y.title, about: y.about, hint: y.hint,
		width: y.width - st.Base.GetHorizontalFrameSize(), room: fieldRoom(st, y.height),
		keep: 1 + lipgloss.Height(buttons), focused: y.focused, look: y.s.live.look}))
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	w := max(lipgloss.Width(b.String()), lipgloss.Width(buttons))
	b.WriteString(lipgloss.NewStyle().Width(w).Align(lipgloss.Center).Render(buttons))
	return st.Base.Width(y.width).Height(y.height).Render(b.String())
}

func (y *yesNo) Focus() tea.Cmd { y.focused = true; return nil }
func (y *yesNo) Blur() tea.Cmd  { y.focused = false; return nil }

func (y *yesNo) KeyBinds() []key.Binding {
	return []key.Binding{y.keys.left, y.keys.Prev, y.keys.Submit, y.keys.Next, y.keys.Accept, y.keys.Reject}
}

func (y *yesNo) WithTheme(t *huh.Theme) huh.Field { y.keepTheme(t); return y }

func (y *yesNo) WithKeyMap(k *huh.KeyMap) huh.Field {
	if k != nil {
		y.keys = newYesNoKeys(k.Confirm)
		y.keys.Accept.SetHelp("y", "Yes")
		y.keys.Reject.SetHelp("n", "No")
	}
	return y
}

func (y *yesNo) WithAccessible(bool) huh.Field { return y }
func (y *yesNo) WithWidth(w int) huh.Field     { y.width = w; return y }
func (y *yesNo) WithHeight(h int) huh.Field    { y.height = h; return y }

func (y *yesNo) WithPosition(p huh.FieldPosition) huh.Field {
	placeKeys(p, &y.keys.Prev, &y.keys.Next, &y.keys.Submit)
	return y
}

// GetValue is the answer, or nil while there is none.
func (y *yesNo) GetValue() any {
	if !y.s.has {
		return nil
	}
	return y.s.on
}
