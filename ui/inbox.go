package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// followup is the user's inbox (docs/mcp-serve.md): the questions waiting
// in other chats — an MCP client's, another task's — join the tab row
// after this chat's own, marked with who asks, and the notice line says
// who asks what. Choosing one (ctrl+n past this chat's last question, or
// ctrl+p before its first; either when this chat has none) turns the
// screen to its chat with that question shown. Nothing here decides
// anything: it only shows a question.

// showTabs reports whether the tab row is drawn: more than one question
// waits, counting those of other chats once this chat has one of its own.
func (m *model) showTabs() bool {
	n := len(m.pane.pending)
	return n > 1 || n == 1 && len(m.cur.others) > 0
}

// otherTab is the tab of a question waiting in another chat.
func otherTab(r chat.RequestView) string {
	return "↗ " + style.Truncate(whoAsks(r.Owner)+": "+forms.PlainLine(r.Title), 32)
}

// whoAsks names who asked, at the start of a line: The agent, Claude Code.
func whoAsks(o chat.Owner) string {
	who := words.AskedByName(o)
	if rest, ok := strings.CutPrefix(who, "the "); ok { // the agent, the MCP client
		return "The " + rest
	}
	return who
}

// otherAt is the question of another chat that ctrl+n (next) or ctrl+p
// shows from here: past this chat's last question the oldest waiting
// elsewhere, before its first the newest.
func (m *model) otherAt(next bool) (chat.RequestView, bool) {
	own := m.pane.pending
	if len(m.cur.others) == 0 || m.archived() && len(own) > 0 {
		return chat.RequestView{}, false
	}
	if len(own) > 0 {
		edge := own[0].ID
		if next {
			edge = own[len(own)-1].ID
		}
		if m.pane.active != edge {
			return chat.RequestView{}, false
		}
	}
	if next {
		return m.cur.others[0], true
	}
	return m.cur.others[len(m.cur.others)-1], true
}

// goToQuestion turns the screen to r's chat with r shown.
func (m *model) goToQuestion(r chat.RequestView) tea.Cmd {
	save := m.pane.saveNow()
	m.pane.keep()
	cmd := m.switchChat(r.ChatID)
	m.pane.active = r.ID
	m.cur.others, m.cur.elsewhere = nil, -1 // counted again for the chat shown
	return tea.Batch(save, cmd, m.load(r.ChatID))
}

// elsewhereLine is the notice line about the questions waiting in other
// chats: how many, who asks what (the newest), and the key that shows it:
// ctrl+n reaches the oldest of them, so with more than one it is ctrl+p.
func (m *model) elsewhereLine() string {
	count := "1 question waits in another chat"
	if m.cur.elsewhere > 1 {
		count = fmt.Sprintf("%d questions wait in other chats", m.cur.elsewhere)
	}
	if len(m.cur.others) == 0 {
		return count + " — " + m.keys.Chats.Help().Key
	}
	r := m.cur.others[len(m.cur.others)-1]
	who := whoAsks(r.Owner)
	newest, show := "", m.keys.NextReq
	if m.cur.elsewhere > 1 {
		newest = "newest: "
	}
	if len(m.cur.others) > 1 {
		show = m.keys.PrevReq
	}
	return count + ": " + newest + who + " asks “" + forms.PlainLine(r.Title) + "” — " + show.Help().Key + " shows it"
}
