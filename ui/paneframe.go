package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// paneFrame draws the form pane's frame around its lines. Drawing the frame
// with lipgloss measures, wraps and pads every line of the pane on every
// frame — a third of a keystroke in a 32-field form — while a key changes
// one or two of them. paneFrame draws each line inside the frame on its own
// and keeps what it drew for the next frame, so a frame draws again only
// the lines that changed. Its output is exactly what
// style.Width(width).Render(strings.Join(lines, "\n")) returns: lipgloss
// wraps, pads and borders each line independently of the others once the
// width is fixed — unless a line leaves an attribute or a link open for
// the next, which the wrap carries on; a frame with such a line is drawn
// whole by lipgloss (a test holds it to that).
type paneFrame struct {
	style   lipgloss.Style
	width   int
	profile termenv.Profile
	ends    [2]string           // the top and bottom border lines
	kept    map[string]keptLine // by the line's text
	misses  int                 // lines drawn by lipgloss (tests)
}

// keptLine is a line drawn inside the frame, and whether it leaves an
// attribute or a link open.
type keptLine struct {
	drawn string
	open  bool
}

// draw returns lines in style's frame at width. The lines a frame does not
// draw again are forgotten, so what is kept stays a frame's worth.
func (f *paneFrame) draw(style lipgloss.Style, width int, lines []string) string {
	if p := lipgloss.ColorProfile(); f.kept == nil || width != f.width || p != f.profile || !sameStyle(style, f.style) {
		f.style, f.width, f.profile, f.kept = style, width, p, map[string]keptLine{}
		// An empty line in the whole frame: its first and last lines are
		// the borders every frame of this width has.
		whole := strings.Split(style.Width(width).Render(""), "\n")
		f.ends = [2]string{whole[0], whole[len(whole)-1]}
	}
	sides := style.Width(width).BorderTop(false).BorderBottom(false)
	next := make(map[string]keptLine, len(lines))
	var out strings.Builder
	out.WriteString(f.ends[0])
	for _, line := range strings.Split(strings.Join(lines, "\n"), "\n") {
		k, ok := next[line]
		if !ok {
			if k, ok = f.kept[line]; !ok {
				k = keptLine{drawn: sides.Render(line), open: leavesOpen(line)}
				f.misses++
			}
			next[line] = k
		}
		if k.open {
			f.kept = next
			return style.Width(width).Render(strings.Join(lines, "\n"))
		}
		out.WriteByte('\n')
		out.WriteString(k.drawn)
	}
	out.WriteByte('\n')
	out.WriteString(f.ends[1])
	f.kept = next
	return out.String()
}

// leavesOpen reports whether line ends with an attribute set (its last
// SGR sequence is not a reset) or holds an OSC sequence (a link), either
// of which the wrap carries to the next line.
func leavesOpen(line string) bool {
	if strings.Contains(line, "\x1b]") {
		return true
	}
	open := false
	for rest := line; ; {
		i := strings.Index(rest, "\x1b[")
		if i < 0 {
			return open
		}
		rest = rest[i+2:]
		j := strings.IndexFunc(rest, func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		if j < 0 {
			return true // cut short: leave it to lipgloss
		}
		if rest[j] == 'm' {
			params := rest[:j]
			open = params != "" && params != "0"
		}
		rest = rest[j+1:]
	}
}

// sameStyle reports whether a and b draw the same frame: the pane's two
// styles differ in their border.
func sameStyle(a, b lipgloss.Style) bool {
	return a.GetBorderStyle() == b.GetBorderStyle() && a.GetBorderTopForeground() == b.GetBorderTopForeground()
}
