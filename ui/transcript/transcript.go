package transcript

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// Entries are drawn entries by message id.
type Entries map[int64]entry

type entry struct {
	width   int
	version string
	text    string
}

// render draws the entries at width, newest first, and joins them. Once
// need lines are drawn, the older entries are left out (undrawn counts
// them) and forgotten: a chat however long keeps drawn only what is on
// screen and near it, and DrawRest draws the rest off the UI goroutine
// when the user scrolls up; need 0 draws all. The result is reused until
// msgs, reqs, width or need change; change them by replacing the slice or
// map, not in place.
func (t *Model) render(msgs []chat.Message, d Data, width, need int) string {
	width = max(width, 10)
	if t.joined != "" && t.joinedWidth == width && t.joinedVersion == t.version && t.joinedNeed == need {
		return t.joined
	}
	t.joinedWidth, t.joinedVersion, t.joinedNeed = width, t.version, need
	t.undrawn = 0
	parts := make([]string, 0, len(msgs))
	lines := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if need > 0 && lines >= need {
			t.undrawn = i + 1
			for _, old := range msgs[:i+1] {
				delete(t.cache, old.ID)
			}
			break
		}
		version := entryVersion(m, d)
		e, ok := t.cache[m.ID]
		if !ok || e.width != width || e.version != version {
			e = entry{width, version, renderEntry(m, d, width)}
			t.cache[m.ID] = e
		}
		parts = append(parts, e.text)
		lines += strings.Count(e.text, "\n") + 2
	}
	slices.Reverse(parts)
	t.joined = strings.Join(parts, "\n\n")
	t.lines = nil
	return t.joined
}

// renderLines is render's result as lines, split once per change.
func (t *Model) renderLines(msgs []chat.Message, d Data, width, need int) []string {
	joined := t.render(msgs, d, width, need)
	if t.lines == nil {
		t.lines = strings.Split(joined, "\n")
	}
	return t.lines
}

// Adopt takes entries drawn elsewhere (by a chat load) into the cache.
func (t *Model) Adopt(entries Entries) {
	for id, e := range entries {
		t.cache[id] = e
	}
}

// Draw draws messages at width as render caches them, newest
// first, until need lines are drawn (need 0: all).
func Draw(msgs []chat.Message, d Data, width, need int) Entries {
	t := Model{cache: Entries{}}
	t.render(msgs, d, width, need)
	return t.cache
}

// entryVersion changes whenever what an entry shows changes; a request
// card shows its request's state.
func entryVersion(m chat.Message, d Data) string {
	switch m.Role {
	case "request":
		return cardVersion(d.Reqs[m.RequestID])
	case chat.RoleToolStep:
		return rowVersion(m, d)
	case chat.RoleSubAgent:
		return fmt.Sprint(m.State, m.Content, d.Look.Unfolded)
	}
	return ""
}

// bodyStyle wraps an entry's text to the transcript's width, indented.
func bodyStyle(width int) lipgloss.Style { return lipgloss.NewStyle().Width(width - 2).PaddingLeft(2) }

// agentHeader heads the agent's replies, streaming or stored.
func agentHeader() string { return style.Agent.Render("agent") }

// agentBody draws a reply's text, sanitised, its inline markdown styled.
// It draws each line on its own (no rule crosses a line break), so a reply
// streaming in can be drawn a line at a time and look the same (stream.go).
func agentBody(text string, width int) string {
	return bodyStyle(width).Render(markdown(forms.SanitizeBlock(text)))
}

func renderEntry(m chat.Message, d Data, width int) string {
	wrap := bodyStyle(width)
	switch m.Role {
	case "user":
		return style.User.Render("you") + "\n" + wrap.Render(forms.SanitizeBlock(m.Content))
	case "assistant":
		return agentHeader() + "\n" + agentBody(m.Content, width)
	case "request":
		return requestCard(d.Reqs[m.RequestID], width)
	case chat.RoleToolStep:
		return toolRow(m, d, width)
	case chat.RoleSubAgent:
		return subAgentRow(m, d.Look.Unfolded, width)
	default:
		return wrap.Render(style.Notice.Render(forms.SanitizeBlock(m.Content)))
	}
}

var (
	boldRe = regexp.MustCompile(`\*\*([^*\n]+)\*\*`)
	codeRe = regexp.MustCompile("`([^`\n]+)`")
)

// markdown styles the inline markdown the agent uses: **bold** and `code`.
func markdown(s string) string {
	s = boldRe.ReplaceAllStringFunc(s, func(m string) string { return style.Bold.Render(m[2 : len(m)-2]) })
	return codeRe.ReplaceAllStringFunc(s, func(m string) string { return style.Code.Render(m[1 : len(m)-1]) })
}

// placeholder is what a chat with nothing in it shows; with the offline
// demo agent, every demo it has (the guide is agent.DemoGuide).
func (t *Model) placeholder(width int, helpKey string, offline bool) []string {
	text := "Type a message to start.\n" + helpKey + " shows every key."
	switch {
	case t.unreadErr != nil:
		text = t.unreadText(helpKey)
	case offline:
		text = "Type a message to start. The offline demo tries: “Check deployment” · “Plan a trip” · " +
			"an answer typed here while a form waits (a proposal) · both questions at once · " +
			"“Plan a team offsite” (two sub-agents ask) · “Release checklist” (a skill’s form) · call SERVER.TOOL · followup mcp serve (other agents ask here).\n" +
			"Ask “what can you do?” for more; " + helpKey + " shows every key."
	}
	return splitLines(style.Dim.Width(max(10, width-2)).PaddingLeft(2).Render("\n" + text))
}

// firstLine is text's first line, with an ellipsis when more follow.
func firstLine(text string) string {
	first, _, more := strings.Cut(text, "\n")
	if more {
		first += " …"
	}
	return first
}

// subAgentRow draws a sub-agent of the task (docs/behaviour.md): its name,
// where it stands and its last line; unfolded (the tool rows' key), its
// last reply whole.
func subAgentRow(m chat.Message, unfolded bool, width int) string {
	inner := max(10, width-4)
	state := m.State.Phrase()
	head := "  ◆ " + style.Bold.Render(forms.SanitizeLine(m.Name)) + style.Dim.Render(" · sub-agent · ") + state
	text := forms.SanitizeBlock(strings.TrimSpace(forms.PlainText(m.Content)))
	if text == "" {
		return head
	}
	if !unfolded {
		return head + "\n    ⎿ " + style.Dim.Render(style.Truncate(firstLine(text), inner-2))
	}
	return head + "\n" + lipgloss.NewStyle().Width(inner).PaddingLeft(6).Render(text)
}
