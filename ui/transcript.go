package ui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/charmbracelet/bubbles/viewport"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// transcript renders messages, caching each finished entry by width and
// version so a frame re-renders only what changed.
type transcript struct {
	vp       viewport.Model
	follow   bool // it stays on its newest line
	stream   stream
	thinking bool // the model is answering
	// The viewport's drawing, kept while what it shows stays the same
	// (frame.go); vpGen is bumped whenever its content is set.
	vpGen  int
	vpMemo memo[[5]int]

	cache  map[int64]renderedEntry
	unread *readFailure // the read of what it would show failed: it says so

	// The joined rendering, reused while the transcript's version and the
	// width stay the same: a keystroke in a form must not re-join thousands
	// of entries.
	version       int // bumped by changed whenever messages or requests change
	joinedWidth   int
	joinedVersion int
	joinedNeed    int
	joined        string
	lines         []string // joined, split into lines once per join

	// undrawn counts the oldest messages the last render left out;
	// drawing, whether drawRest is drawing them.
	undrawn int
	drawing bool

	// Older pages: the id below which a page is being read (0 = none), and
	// the first message id below which nothing older exists.
	loadingBefore int64
	completeAt    int64
}

// changed marks the messages or requests as changed.
func (t *transcript) changed() { t.version++ }

type renderedEntry struct {
	width   int
	version string
	text    string
}

func newTranscript() *transcript {
	return &transcript{vp: viewport.New(80, 10), follow: true, cache: map[int64]renderedEntry{}}
}

// render draws the entries at width, newest first, and joins them. Once
// need lines are drawn, the older entries are left out (undrawn counts
// them) and forgotten: a chat however long keeps drawn only what is on
// screen and near it, and drawRest draws the rest off the UI goroutine
// when the user scrolls up; need 0 draws all. The result is reused until
// msgs, reqs, width or need change; change them by replacing the slice or
// map, not in place.
func (t *transcript) render(msgs []chat.Message, d entryData, width, need int) string {
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
			e = renderedEntry{width, version, renderEntry(m, d, width)}
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
func (t *transcript) renderLines(msgs []chat.Message, d entryData, width, need int) []string {
	joined := t.render(msgs, d, width, need)
	if t.lines == nil {
		t.lines = strings.Split(joined, "\n")
	}
	return t.lines
}

// adopt takes entries drawn elsewhere (by a chat load) into the cache.
func (t *transcript) adopt(entries map[int64]renderedEntry) {
	for id, e := range entries {
		t.cache[id] = e
	}
}

// renderEntries draws messages at width as render caches them, newest
// first, until need lines are drawn (need 0: all).
func renderEntries(msgs []chat.Message, d entryData, width, need int) map[int64]renderedEntry {
	width = max(width, 10)
	out := make(map[int64]renderedEntry, len(msgs))
	lines := 0
	for i := len(msgs) - 1; i >= 0 && (need == 0 || lines < need); i-- {
		m := msgs[i]
		e := renderedEntry{width, entryVersion(m, d), renderEntry(m, d, width)}
		out[m.ID] = e
		lines += strings.Count(e.text, "\n") + 2
	}
	return out
}

// entryVersion changes whenever what an entry shows changes; a request
// card shows its request's state.
func entryVersion(m chat.Message, d entryData) string {
	switch m.Role {
	case "request":
		return cardVersion(d.reqs[m.RequestID])
	case chat.RoleToolStep:
		return rowVersion(m, d)
	case chat.RoleSubAgent:
		return fmt.Sprint(m.State, m.Content, d.look.unfolded)
	}
	return ""
}

// entriesMsg brings transcript entries drawn off the UI goroutine.
type entriesMsg struct {
	chatID  string
	entries map[int64]renderedEntry
}

// drawRest draws, off the UI goroutine, the older entries the last render
// left out, once the user scrolls up to read them; nil when there are
// none, they are being drawn, or the transcript follows its newest line
// (a chat looked at in passing costs only the screenful it shows).
func (m *model) drawRest() tea.Cmd {
	t := m.tr
	if t.undrawn == 0 || t.drawing || m.tr.follow {
		return nil
	}
	t.drawing = true
	msgs, d, width, chatID := m.cur.messages[:t.undrawn], m.entryData(), t.joinedWidth, m.cur.chatID
	return func() tea.Msg { return entriesMsg{chatID, renderEntries(msgs, d, width, 0)} }
}

// onEntries shows entries drawRest drew, keeping the lines in view still.
func (m *model) onEntries(msg entriesMsg) {
	m.tr.drawing = false
	if msg.chatID != m.cur.chatID {
		return
	}
	m.tr.adopt(msg.entries)
	lines, offset := m.tr.vp.TotalLineCount(), m.tr.vp.YOffset
	m.tr.changed()
	m.refreshTranscript()
	if !m.tr.follow {
		m.tr.vp.SetYOffset(offset + m.tr.vp.TotalLineCount() - lines)
	}
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

func renderEntry(m chat.Message, d entryData, width int) string {
	wrap := bodyStyle(width)
	switch m.Role {
	case "user":
		return style.User.Render("you") + "\n" + wrap.Render(forms.SanitizeBlock(m.Content))
	case "assistant":
		return agentHeader() + "\n" + agentBody(m.Content, width)
	case "request":
		return requestCard(d.reqs[m.RequestID], width)
	case chat.RoleToolStep:
		return toolRow(m, d, width)
	case chat.RoleSubAgent:
		return subAgentRow(m, d.look.unfolded, width)
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

// maybeLoadOlder asks for the page before the oldest shown message when the
// transcript is scrolled to its top. Call it after scrolling up.
func (m *model) maybeLoadOlder() tea.Cmd {
	t := m.tr
	if !m.tr.vp.AtTop() || len(m.cur.messages) == 0 || m.cur.messages[0].ID == t.completeAt || t.loadingBefore != 0 || m.cur.chatID == "" {
		return nil
	}
	t.loadingBefore = m.cur.messages[0].ID
	return loadOlder(m.svc, m.cur.chatID, t.loadingBefore)
}

// onOlder puts an older page above the transcript, keeping the lines the
// user is reading where they are.
func (m *model) onOlder(msg olderMsg) tea.Cmd {
	t := m.tr
	if msg.before != t.loadingBefore {
		return nil
	}
	t.loadingBefore = 0
	if msg.err != nil {
		m.setErr("", msg.err)
		return nil
	}
	if msg.chatID != m.cur.chatID || len(m.cur.messages) == 0 || m.cur.messages[0].ID != msg.before {
		return nil // the chat or its first page changed meanwhile
	}
	if len(msg.messages) == 0 {
		t.completeAt = msg.before
		return nil
	}
	reqs := make(map[string]chat.RequestView, len(m.cur.requests)+len(msg.requests))
	for _, r := range msg.requests {
		reqs[r.ID] = r
	}
	for id, r := range m.cur.requests {
		reqs[id] = r
	}
	lines, offset := m.tr.vp.TotalLineCount(), m.tr.vp.YOffset
	m.cur.messages = append(append(make([]chat.Message, 0, len(msg.messages)+len(m.cur.messages)), msg.messages...), m.cur.messages...)
	m.cur.requests = reqs
	m.mcp.addSteps(msg.steps)
	m.tr.changed()
	m.refreshTranscript()
	m.tr.vp.SetYOffset(offset + m.tr.vp.TotalLineCount() - lines)
	return nil
}

// placeholder is what a chat with nothing in it shows; with the offline
// demo agent, every demo it has (the guide is agent.DemoGuide).
func (t *transcript) placeholder(width int, helpKey string, offline bool) []string {
	if t.unread != nil {
		return unreadLines(t.unread, width, helpKey)
	}
	text := "\nType a message to start.\n" + helpKey + " shows every key."
	if offline {
		text = "\nType a message to start. The offline demo tries: “Check deployment” · “Plan a trip” · " +
			"an answer typed here while a form waits (a proposal) · both questions at once · " +
			"“Plan a team offsite” (two sub-agents ask) · “Release checklist” (a skill’s form) · call SERVER.TOOL · followup mcp serve (other agents ask here).\n" +
			"Ask “what can you do?” for more; " + helpKey + " shows every key."
	}
	return splitLines(style.Dim.Width(max(10, width-2)).PaddingLeft(2).Render(text))
}

// labelsOf names fields by their labels, in the order given.
func labelsOf(r chat.RequestView, names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		for _, f := range r.Fields {
			if f.Name == n {
				out[i] = f.DisplayLabel()
			}
		}
	}
	return strings.Join(out, ", ")
}

// subAgentRow draws a sub-agent of the task (docs/behaviour.md): its name,
// where it stands and its last line; unfolded (the tool rows' key), its
// last reply whole.
func subAgentRow(m chat.Message, unfolded bool, width int) string {
	inner := max(10, width-4)
	state := strings.TrimPrefix(strings.TrimPrefix(m.State.Words(), "is "), "was ")
	head := "  ◆ " + style.Bold.Render(forms.SanitizeLine(m.Name)) + style.Dim.Render(" · sub-agent · ") + state
	text := forms.SanitizeBlock(strings.TrimSpace(forms.PlainText(m.Content)))
	if text == "" {
		return head
	}
	if !unfolded {
		first, _, more := strings.Cut(text, "\n")
		if more {
			first += " …"
		}
		return head + "\n    ⎿ " + style.Dim.Render(style.Truncate(first, inner-2))
	}
	return head + "\n" + lipgloss.NewStyle().Width(inner).PaddingLeft(6).Render(text)
}
