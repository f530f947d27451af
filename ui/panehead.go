package ui

import (
	"strings"
	"time"

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
// pane has the room for it.
func paneHead(r chat.RequestView, by string, withReason bool, width, room int) []string {
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
	return wrapAtMost(strings.Join(words, "  "), width, max(1, min(room, paneHeadMost)))
}

// wrapAtMost wraps s (styled or not) to width at word boundaries, long
// words broken, in at most n lines; what does not fit is cut with an
// ellipsis on the last.
func wrapAtMost(s string, width, n int) []string {
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if len(lines) > n {
		lines = append(lines[:n-1], style.Truncate(strings.Join(lines[n-1:], " "), width))
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}
