// Package style is the screen's look, shared by its components: the
// styles (built once, not per frame), key hints and cutting to a width.
package style

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"followup/forms"
)

// Styles are built once, not per frame.
var (
	User   = lipgloss.NewStyle().Foreground(lipgloss.Color("12")).Bold(true)
	Agent  = lipgloss.NewStyle().Foreground(lipgloss.Color("10")).Bold(true)
	Notice = lipgloss.NewStyle().Foreground(lipgloss.Color("8")).Italic(true)
	Bold   = lipgloss.NewStyle().Bold(true)
	Code   = lipgloss.NewStyle().Foreground(lipgloss.Color("13"))
	Dim    = lipgloss.NewStyle().Faint(true)
	Error  = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	Status = lipgloss.NewStyle().Foreground(lipgloss.Color("7")).Background(lipgloss.Color("236"))
	Tab    = lipgloss.NewStyle().Padding(0, 1).Foreground(lipgloss.Color("8"))
	// The shown tab is bracketed, so it stands out with no colour too
	// (NO_COLOR draws no attribute, bold included); brackets take the
	// cells the other tabs' padding does.
	TabActive = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("13")).
			Border(lipgloss.Border{Left: "[", Right: "]"}, false, true, false, true)
	Pane = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("13")).Padding(0, 1)
	// Waiting for the focus: dim, and square corners, so focus shows with
	// no colour too (NO_COLOR).
	PaneDim    = Pane.Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("8"))
	HelpColumn = lipgloss.NewStyle().PaddingRight(2)
	Dialog     = lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(lipgloss.Color("11")).Padding(0, 1)
	DialogDim  = Dialog.Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("8"))
	LinkHost   = lipgloss.NewStyle().Bold(true).Underline(true).Foreground(lipgloss.Color("11"))

	Good    = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	Waiting = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))

	States = map[string]lipgloss.Style{
		"pending":   Waiting,
		"answered":  Good,
		"cancelled": Error,
		"expired":   lipgloss.NewStyle().Foreground(lipgloss.Color("8")),
	}
)

// PaneFrame and DialogFrame frame the pane's form or dialog: bright while
// it has the focus, dim while it waits for it.
func PaneFrame(focused bool) lipgloss.Style {
	if focused {
		return Pane
	}
	return PaneDim
}

func DialogFrame(focused bool) lipgloss.Style {
	if focused {
		return Dialog
	}
	return DialogDim
}

// HintSep is the one separator between Hints on screen.
const HintSep = " · "

// Hints draws the bindings that apply now as one line: "key does · key
// does". Disabled bindings are left out.
func Hints(bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		parts = append(parts, Bold.Render(h.Key)+" "+h.Desc)
	}
	return strings.Join(parts, HintSep)
}

// HintsFit is Hints cut to width: whole Hints, the first ones, as many
// as fit.
func HintsFit(width int, bs ...key.Binding) string {
	for n := len(bs); n > 0; n-- {
		if h := Hints(bs[:n]...); lipgloss.Width(h) <= width {
			return h
		}
	}
	return ""
}

// Relabel is b saying desc: the same keys, worded for one place.
func Relabel(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// Either is a and b shown as one hint: "a/b desc".
func Either(a, b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(a.Help().Key+"/"+b.Help().Key, desc))
}

// FocusHint is a dialog's hint line, cut to width: its keys while it has
// the focus; while it waits for it, how to give it the focus.
func FocusHint(width int, focused bool, focus key.Binding, bs ...key.Binding) string {
	if focused {
		return HintsFit(width, append(bs, Relabel(focus, "to the composer"))...)
	}
	h := Hints(Relabel(focus, "to decide")) + "  (" + Hints(bs...) + ")"
	if lipgloss.Width(h) > width {
		h = Hints(Relabel(focus, "to decide"))
	}
	return Dim.Render(h)
}

// Plural is n with the word that agrees with it: "1 question",
// "2 questions".
func Plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, forms.Plural(n, one, many))
}

// Truncate cuts s to n cells as the terminal draws them (styled text and
// grapheme clusters too), ending with an ellipsis when it cut.
func Truncate(s string, n int) string {
	if n < 1 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}

// PaneWidth is how wide the pane's frame is drawn on a terminal w wide:
// two columns short of it.
func PaneWidth(w int) int { return w - 2 }

// PaneInner is the cells inside the pane's frame on a terminal w wide: its
// width less the frame's border and padding. A form is built that wide; a
// wider one has its lines wrapped by the frame (a long value's text pushed
// off its prompt's line).
func PaneInner(w int) int { return max(10, PaneWidth(w)-Pane.GetHorizontalFrameSize()) }

// Framed draws body in st's frame (the pane's or a dialog's), PaneWidth
// wide in all on a terminal w wide.
func Framed(st lipgloss.Style, w int, body string) string {
	return st.Width(PaneWidth(w) - st.GetHorizontalBorderSize()).Render(body)
}

// Memo keeps one drawing while its key stays the same: one too costly to
// make again on every frame. A nil Memo keeps nothing.
type Memo[K comparable, V any] struct {
	key  K
	ok   bool
	view V
}

// Get is the drawing for key: the one kept, or draw's when key changed.
func (c *Memo[K, V]) Get(key K, draw func() V) V {
	if c == nil {
		return draw()
	}
	if !c.ok || c.key != key {
		c.key, c.ok, c.view = key, true, draw()
	}
	return c.view
}
