package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// paneHeadMost is the most lines the pane gives to who asks and why: a
// reason longer than that is cut, with an ellipsis, on the last.
const paneHeadMost = 3

// paneHead is the lines above the form saying who asks and why (on a short
// screen, who asks only), wrapped to width in at most room lines (one at
// least, paneHeadMost at most), so the reason reads whole wherever the
// pane has the room for it. A reason cut ends with the hint of read, the
// key that shows it in full.
func paneHead(r chat.RequestView, by string, withReason bool, width, room int, read key.Binding) []string {
	var words []string
	if by != "" {
		words = append(words, style.Bold.Render(by))
	}
	if withReason {
		if reason := forms.PlainLine(r.Reason); reason != "" {
			words = append(words, style.Dim.Render(reason))
		}
		if r.ExpiresAt != nil {
			words = append(words, style.Dim.Render("expires "+chat.DeadlineWords(*r.ExpiresAt, time.Now())))
		}
	}
	if len(words) == 0 {
		return nil
	}
	return wrapAtMost(strings.Join(words, " · "), width, max(1, min(room, paneHeadMost)), style.Hints(style.Relabel(read, "reads it all")))
}

// wrapAtMost wraps s (styled or not) to width at word boundaries, long
// words broken, in at most n lines; what does not fit is cut with an
// ellipsis on the last, and more after it.
func wrapAtMost(s string, width, n int, more string) []string {
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if len(lines) > n {
		if more != "" {
			more = " " + more
		}
		lines = append(lines[:n-1], style.Truncate(strings.Join(lines[n-1:], " "), width-lipgloss.Width(more))+more)
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}
