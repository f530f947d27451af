package forms

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// A page taller than the room it has (maxHeight) shows a window of its
// fields. The window moves as little as it can to keep the focused field
// whole in view, so the field just left usually stays on screen beside the
// next one. When a field out of view has a problem — found as the user
// left it, or set by the screen — one line at the window's edge toward
// that field says it ("↑ ✗ Start date is not a valid date"): a problem
// never appears where the user cannot see it. Where the window has no row
// to spare beside the whole focused field, the page's description gives
// its lines to the note.

// fieldSpan is where a field's drawing lies in the page's content, in lines,
// and the lines of it that draw a problem.
type fieldSpan struct {
	first, last int
	problems    []int // absolute lines holding a problem mark
	p           *paged
}

// drawTall draws a page taller than maxHeight: its header, the part of its
// fields in view, and a line about problems out of view.
func (l *Live) drawTall() string {
	header, footer := l.group.Header(), l.group.Footer()
	rows := l.maxHeight
	if header != "" {
		rows -= lipgloss.Height(header)
	}
	if footer != "" {
		rows -= 1 + lipgloss.Height(footer)
	}
	rows = max(rows, 1)
	lines, spans := l.pageLines()
	focused := -1
	for i, sp := range spans {
		if sp.p.focused {
			focused = i
		}
	}
	l.follow(spans, focused, rows, len(lines))
	above, below := hiddenProblems(spans, focused, l.top, rows)
	note := ""
	if len(above)+len(below) > 0 {
		if h := lipgloss.Height(header); header != "" && h > 1 && focused >= 0 &&
			spans[focused].last-spans[focused].first+1 > rows-1 {
			// Too cramped for the note beside the whole focused field: the
			// page's description gives way, its title stays.
			header, _, _ = strings.Cut(header, "\n")
			rows += h - 1
		}
		if rows > 1 {
			rows--
			l.follow(spans, focused, rows, len(lines))
			above, below = hiddenProblems(spans, focused, l.top, rows)
			note = l.problemNote(above, below)
		}
	}
	window := lines[l.top:min(len(lines), l.top+rows)]
	var parts []string
	if header != "" {
		parts = append(parts, header)
	}
	if note != "" && len(above) > 0 {
		parts = append(parts, note)
	}
	parts = append(parts, strings.Join(window, "\n"))
	if note != "" && len(above) == 0 {
		parts = append(parts, note)
	}
	if footer != "" {
		parts = append(parts, "", footer)
	}
	last := len(parts) - 1
	parts[last] = strings.TrimSuffix(parts[last], " ")
	return strings.Join(parts, "\n")
}

// pageLines is the page's fields drawn one after another, as huh's group
// draws them, and where each lies.
func (l *Live) pageLines() ([]string, []fieldSpan) {
	gap := strings.Count(l.base.FieldSeparator.Render(), "\n") - 1 // blank lines between fields
	var lines []string
	spans := make([]fieldSpan, 0, len(l.shown))
	for i, p := range l.shown {
		if i > 0 {
			for range max(gap, 0) {
				lines = append(lines, "")
			}
		}
		sp := fieldSpan{first: len(lines), p: p}
		for _, line := range strings.Split(p.View(), "\n") {
			if strings.Contains(line, problemMark) && len(p.s.problems()) > 0 {
				sp.problems = append(sp.problems, len(lines))
			}
			lines = append(lines, line)
		}
		sp.last = len(lines) - 1
		spans = append(spans, sp)
	}
	return lines, spans
}

// follow moves the window (l.top, rows high, over total lines) as little
// as keeps the focused field whole in view; a field taller than the
// window shows its top.
func (l *Live) follow(spans []fieldSpan, focused, rows, total int) {
	if focused >= 0 {
		sp := spans[focused]
		switch {
		case sp.first < l.top || sp.last-sp.first+1 > rows:
			l.top = sp.first
		case sp.last >= l.top+rows:
			l.top = sp.last - rows + 1
		}
	}
	l.top = max(0, min(l.top, total-rows))
}

// hiddenProblems are the fields, other than the focused one, whose
// problem lines all lie outside the window: above it and below it.
func hiddenProblems(spans []fieldSpan, focused, top, rows int) (above, below []*slot) {
	for i, sp := range spans {
		if i == focused || len(sp.problems) == 0 {
			continue
		}
		seen := false
		for _, at := range sp.problems {
			seen = seen || at >= top && at < top+rows
		}
		switch {
		case seen:
		case sp.problems[0] < top:
			above = append(above, sp.p.s)
		default:
			below = append(below, sp.p.s)
		}
	}
	return above, below
}

// problemNote is the line at the window's edge about the problems out of
// view: toward where the first lies, how many there are when more than
// one (first, so a narrow line cuts words, not the count), and the first
// in words.
func (l *Live) problemNote(above, below []*slot) string {
	arrow, first := "↓ ", below
	if len(above) > 0 {
		arrow, first = "↑ ", above
	}
	s := first[0]
	msg := SanitizeLine(s.problems()[0])
	if label := s.label(); !strings.HasPrefix(msg, label) {
		msg = label + ": " + msg
	}
	line := arrow + problemMark + msg
	if n := len(above) + len(below); n > 1 {
		line = fmt.Sprintf("%s%s%d problems: %s", arrow, problemMark, n, msg)
	}
	if l.width > 0 {
		// As wide as a field's text: inside the fields' border and padding.
		line = ansi.Truncate(line, max(1, l.width-l.base.Focused.Base.GetHorizontalFrameSize()), "…")
	}
	// The error colour alone: huh's error style adds its own mark.
	return lipgloss.NewStyle().Foreground(l.base.Focused.ErrorMessage.GetForeground()).Render(line)
}
