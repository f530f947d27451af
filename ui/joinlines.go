package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// lineJoin stacks blocks of lines as lipgloss.JoinVertical(lipgloss.Left,
// …) does — every line padded with spaces to the widest — but keeps each
// line's width for the next frame: measuring is most of what stacking the
// screen costs, and a frame changes few of its lines.
type lineJoin struct {
	kept   map[string]int // line → its width in cells, the last frame's lines
	misses int            // lines measured (tests)
}

// join returns blocks stacked, exactly as lipgloss.JoinVertical with Left.
func (j *lineJoin) join(blocks ...string) string {
	switch len(blocks) {
	case 0:
		return ""
	case 1:
		return blocks[0]
	}
	next := make(map[string]int, len(j.kept))
	lines := make([][]string, len(blocks))
	widest := 0
	for i, b := range blocks {
		lines[i] = strings.Split(b, "\n")
		for _, l := range lines[i] {
			w, ok := next[l]
			if !ok {
				if w, ok = j.kept[l]; !ok {
					w = ansi.StringWidth(l)
					j.misses++
				}
				next[l] = w
			}
			widest = max(widest, w)
		}
	}
	j.kept = next
	var out strings.Builder
	for i, block := range lines {
		for k, l := range block {
			out.WriteString(l)
			out.WriteString(strings.Repeat(" ", max(0, widest-next[l])))
			if i < len(lines)-1 || k < len(block)-1 {
				out.WriteByte('\n')
			}
		}
	}
	return out.String()
}
