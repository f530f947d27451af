package dialog

import (
	"fmt"
	"strings"

	"followup/ui/style"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// scroll is a window over lines taller than the box they are drawn in;
// the views that can grow (review, proposal, help) keep one. Its top is
// kept in range by move; drawing clamps a copy and changes nothing.
type scroll struct{ top int }

// shown is how many of total lines fit in height: all, or one fewer to
// leave room for the line saying where the window is.
func shown(total, height int) int {
	if total <= height {
		return total
	}
	return max(1, height-1)
}

func clampTop(top, total, rows int) int { return max(0, min(top, total-rows)) }

// move takes a scroll key; it reports whether msg was one and the lines
// do not all fit, so there was somewhere to go.
func (s *scroll) move(msg tea.KeyMsg, k ScrollKeys, total, height int) bool {
	if total <= height {
		return false
	}
	rows := shown(total, height)
	by, ok := k.moveBy(msg, k.Up, k.Down, max(1, rows-1), total)
	if ok {
		s.top = clampTop(s.top+by, total, rows)
	}
	return ok
}

// moveBy is how far a key moves a place among total rows shown page at a
// time: up or down one, a page, or to either end; ok reports whether msg
// is one of those keys.
func (k ScrollKeys) moveBy(msg tea.KeyMsg, up, down key.Binding, page, total int) (by int, ok bool) {
	switch {
	case key.Matches(msg, up):
		return -1, true
	case key.Matches(msg, down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Top):
		return -total, true
	case key.Matches(msg, k.Bottom):
		return total, true
	}
	return 0, false
}

// window is the lines that fit in height from the top, with a last line
// saying where they are when not all fit.
func (s scroll) window(lines []string, height int, k ScrollKeys) []string {
	if len(lines) <= height {
		return lines
	}
	rows := shown(len(lines), height)
	top := clampTop(s.top, len(lines), rows)
	pos := style.Dim.Render(fmt.Sprintf("%s (%d–%d of %d)", style.Hints(k.Up, k.PageUp), top+1, top+rows, len(lines)))
	return append(lines[top:top+rows:top+rows], pos)
}

// paneBox is how a dialog in the pane is drawn: a frame, its body
// wrapped to the frame and scrolled to fit, and its hint line pinned
// below the body.
type paneBox struct {
	width, height int
}

// inner is the width inside the frame (border and padding).
func (b paneBox) inner() int { return style.PaneInner(b.width) }

// rows is how many body lines fit above the hint line.
func (b paneBox) rows() int { return max(1, b.height-3) }

// lines is body wrapped to the frame.
func (b paneBox) lines(body string) []string {
	return strings.Split(lipgloss.NewStyle().Width(b.inner()).Render(body), "\n")
}

// draw frames body (scrolled by s) and the hint.
func (b paneBox) draw(st lipgloss.Style, body, hint string, s scroll, k ScrollKeys) string {
	lines := s.window(b.lines(body), b.rows(), k)
	lines = append(lines, style.Truncate(hint, b.inner()))
	return style.Framed(st, b.width, strings.Join(lines, "\n"))
}

// card is what every dialog drawn in the pane keeps: the box it is drawn
// in and where its body is scrolled.
type card struct {
	scrollK ScrollKeys
	focusK  key.Binding
	about   string // the question (Question.Key) it is about, "" when none
	box     paneBox
	scroll  scroll
	// deciding: a decision (Decides) is on its way; the card's keys
	// decide nothing more until it hears that it failed.
	deciding bool
}

// choice is one of a card's keys and the action it asks (nil: nothing
// now).
type choice struct {
	key.Binding
	act Action
}

func newCard(keys Keys, about string) card {
	return card{scrollK: keys.Scroll, focusK: keys.Focus, about: about}
}

// hint is the card's hint line at width: keys while it has the focus,
// else how to give it the focus (style.FocusHint).
func (c card) hint(width int, focused bool, keys ...key.Binding) string {
	return style.FocusHint(style.PaneInner(width), focused, c.focusK, keys...)
}

// frame draws body in a dialog's frame at width×height, scrolled as the
// card is, the hint below.
func (c card) frame(width, height int, focused bool, body, hint string) string {
	return paneBox{width, height}.draw(style.DialogFrame(focused), body, hint, c.scroll, c.scrollK)
}

func (c card) About() string  { return c.about }
func (card) FullScreen() bool { return false }

// update does what every card does with msg: a Size is its box, a scroll
// key moves through body when it does not all fit, and another key asks
// the action of the first choice it matches (Pass when none does). It
// reports whether msg was one of those.
func (c *card) update(msg tea.Msg, body func() string, choices ...choice) (Action, bool) {
	switch msg := msg.(type) {
	case Size:
		c.box = paneBox{msg.Width, msg.Height}
		return nil, true
	case tea.KeyMsg:
		if c.scroll.move(msg, c.scrollK, len(c.box.lines(body())), c.box.rows()) {
			return nil, true
		}
		for _, ch := range choices {
			switch {
			case !key.Matches(msg, ch.Binding):
				continue
			case !Decides(ch.act):
			case c.deciding:
				return nil, true
			default:
				c.deciding = true
			}
			return ch.act, true
		}
		return Pass{}, true
	}
	return nil, false
}
