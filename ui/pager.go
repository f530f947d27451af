package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// pager is the transcript's scrolling window. It draws what bubbles'
// viewport draws, but it holds lines, not one string, in two parts: the
// finished entries and, after them, the reply streaming in. A delta then
// replaces the last few lines of the second part; nothing splits, measures
// or copies the whole transcript again.
type pager struct {
	Width, Height int
	YOffset       int

	base, tail []string
	// version changes whenever the lines do, so a drawn window can be
	// reused while it stays the same.
	version int
}

func newPager(width, height int) pager { return pager{Width: width, Height: height} }

// SetContent shows s, one line per line of s.
func (p *pager) SetContent(s string) { p.setLines(strings.Split(s, "\n"), nil) }

// setLines shows base then tail. The pager keeps the slices: change them
// by passing new ones (appending to tail's array past its length is fine).
func (p *pager) setLines(base, tail []string) {
	p.base, p.tail = base, tail
	p.version++
	if p.YOffset > p.TotalLineCount()-1 {
		p.GotoBottom()
	}
}

// content is every line, joined (for tests and checks, not per frame).
func (p *pager) content() string {
	return strings.Join(append(append([]string(nil), p.base...), p.tail...), "\n")
}

// TotalLineCount is the number of lines held.
func (p *pager) TotalLineCount() int { return len(p.base) + len(p.tail) }

func (p *pager) line(i int) string {
	if i < len(p.base) {
		return p.base[i]
	}
	return p.tail[i-len(p.base)]
}

func (p *pager) maxYOffset() int { return max(0, p.TotalLineCount()-p.Height) }

// SetYOffset scrolls to line n, kept in range.
func (p *pager) SetYOffset(n int) { p.YOffset = max(0, min(n, p.maxYOffset())) }

func (p *pager) AtTop() bool    { return p.YOffset <= 0 }
func (p *pager) AtBottom() bool { return p.YOffset >= p.maxYOffset() }
func (p *pager) GotoTop()       { p.SetYOffset(0) }
func (p *pager) GotoBottom()    { p.SetYOffset(p.maxYOffset()) }

// HalfPageUp and HalfPageDown scroll by half the window's height.
func (p *pager) HalfPageUp() {
	if !p.AtTop() && p.TotalLineCount() > 0 {
		p.SetYOffset(p.YOffset - p.Height/2)
	}
}

func (p *pager) HalfPageDown() {
	if !p.AtBottom() && p.TotalLineCount() > 0 {
		p.SetYOffset(p.YOffset + p.Height/2)
	}
}

// View draws the lines in the window, padded and cut to its size.
func (p *pager) View() string {
	top := max(0, p.YOffset)
	bottom := max(top, min(p.YOffset+p.Height, p.TotalLineCount()))
	lines := make([]string, 0, bottom-top)
	for i := top; i < bottom; i++ {
		l := p.line(i)
		if p.Width > 0 && ansi.StringWidth(l) > p.Width {
			l = ansi.Cut(l, 0, p.Width)
		}
		lines = append(lines, l)
	}
	return lipgloss.NewStyle().Width(p.Width).Height(p.Height).MaxHeight(p.Height).MaxWidth(p.Width).
		Render(strings.Join(lines, "\n"))
}
