package ui

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
)

// transcript renders messages, caching each finished entry by width and
// version so a frame re-renders only what changed.
type transcript struct {
	cache map[int64]renderedEntry
}

type renderedEntry struct {
	width   int
	version string
	text    string
}

func newTranscript() *transcript { return &transcript{cache: map[int64]renderedEntry{}} }

// render draws every entry at width.
func (t *transcript) render(msgs []chat.Message, reqs map[string]chat.RequestView, width int) string {
	if width < 10 {
		width = 10
	}
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		version := ""
		if m.Role == "request" {
			version = cardVersion(reqs[m.RequestID])
		}
		if c, ok := t.cache[m.ID]; ok && c.width == width && c.version == version {
			parts = append(parts, c.text)
			continue
		}
		text := renderEntry(m, reqs, width)
		t.cache[m.ID] = renderedEntry{width, version, text}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n")
}

func renderEntry(m chat.Message, reqs map[string]chat.RequestView, width int) string {
	wrap := lipgloss.NewStyle().Width(width - 2).PaddingLeft(2)
	switch m.Role {
	case "user":
		return stUser.Render("you") + "\n" + wrap.Render(forms.SanitizeBlock(m.Content))
	case "assistant":
		return stAgent.Render("agent") + "\n" + wrap.Render(markdown(forms.SanitizeBlock(m.Content)))
	case "request":
		return requestCard(reqs[m.RequestID], width)
	default:
		return wrap.Render(stNotice.Render(forms.SanitizeBlock(m.Content)))
	}
}

func cardVersion(r chat.RequestView) string {
	v := r.State + "|" + r.ClosedReason + "|" + r.Digest
	for _, d := range r.Deliveries {
		v += fmt.Sprintf("|%s:%s", d.Kind, d.State)
	}
	return v
}

// requestCard is a request's line in the transcript: its title and its
// state, each closed state worded differently, with the delivery state.
func requestCard(r chat.RequestView, width int) string {
	if r.ID == "" {
		return stNotice.Render("  (input request)")
	}
	title := forms.SanitizeLine(r.Title)
	st := stateStyles[r.State]
	var status string
	switch r.State {
	case "pending":
		status = "waiting for your answer"
		if len(r.Partial) > 0 {
			status += fmt.Sprintf(" · partial, missing %s", strings.Join(r.Missing, ", "))
		}
	case "answered":
		status = "answered: " + summarize(r)
	case "cancelled":
		status = "cancelled by you"
	case "expired":
		status = "expired — " + map[string]string{
			"deadline": "its deadline passed", "template_invalidated": "its template was withdrawn",
			"task_stopped": "the task was stopped",
		}[r.ClosedReason]
	}
	if n := len(r.Deliveries); n > 0 {
		d := r.Deliveries[n-1]
		status += " · " + deliveryWord(d)
	}
	line := "  ? " + stBold.Render(title) + "  " + st.Render(forms.SanitizeLine(status))
	return lipgloss.NewStyle().Width(width).Render(line)
}

func deliveryWord(d chat.DeliveryView) string {
	switch d.State {
	case "delivered":
		return "delivered to the agent"
	case "pending":
		return "not yet delivered"
	case "unknown":
		return "delivery interrupted — will be checked"
	case "failed":
		return "not delivered: " + d.LastError
	}
	return d.State
}

func summarize(r chat.RequestView) string {
	if r.Answer == nil {
		return ""
	}
	keys := make([]string, 0, len(r.Answer.Values))
	for k := range r.Answer.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, r.Answer.Values[k]))
	}
	s := strings.Join(parts, ", ")
	if len([]rune(s)) > 80 {
		s = string([]rune(s)[:79]) + "…"
	}
	return s
}

var (
	boldRe = regexp.MustCompile(`\*\*([^*\n]+)\*\*`)
	codeRe = regexp.MustCompile("`([^`\n]+)`")
)

// markdown styles the inline markdown the agent uses: **bold** and `code`.
func markdown(s string) string {
	s = boldRe.ReplaceAllStringFunc(s, func(m string) string { return stBold.Render(m[2 : len(m)-2]) })
	return codeRe.ReplaceAllStringFunc(s, func(m string) string { return stCode.Render(m[1 : len(m)-1]) })
}
