package ui

import (
	"cmp"
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// approvalDialog asks the user to allow one MCP tool call (docs/mcp.md):
// the server, the tool and its arguments, with allow once, allow for this
// chat and deny. It arrives by itself like a proposal, so the focus rule
// applies: it takes the focus only when the composer is empty and the user
// paused, and its keys act only while it has the focus. The approval is
// durable: the card is back after a restart until someone decides.
type approvalDialog struct {
	keys    approvalKeys
	scrollK scrollKeys
	a       chat.ApprovalView
	box     paneBox
	scroll  scroll
	// deciding: a decision is on its way; further keys decide nothing.
	deciding bool
}

// approvalsMsg brings the open chat's pending approvals.
type approvalsMsg []chat.ApprovalView

// approvedMsg reports a decided approval.
type approvedMsg struct {
	id      string
	forChat bool
	deny    bool
	d       chat.ApprovalDecision
	err     error
}

// approveAct allows an approval (once, or for the chat); denyAct denies it.
type (
	approveAct struct {
		id      string
		forChat bool
	}
	denyAct struct{ id string }
)

func (approveAct) isAction() {}
func (denyAct) isAction()    {}

func newApproval(keys keyMap, a chat.ApprovalView) approvalDialog {
	return approvalDialog{keys: keys.Approval, scrollK: keys.Scroll, a: a}
}

func (d approvalDialog) about() string    { return "" }
func (d approvalDialog) fullScreen() bool { return false }

func (d approvalDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case approvalsMsg:
		for _, a := range msg {
			if a.ID == d.a.ID {
				d.a = a
				return d, nil
			}
		}
		return d, closeAct{} // decided elsewhere, or its task stopped
	case approvedMsg:
		if msg.id != d.a.ID {
			return d, nil
		}
		if msg.err == nil {
			return d, closeAct{}
		}
		d.deciding = false
	case tea.KeyMsg:
		switch {
		case d.deciding && (key.Matches(msg, d.keys.Once) || key.Matches(msg, d.keys.Chat) || key.Matches(msg, d.keys.Deny)):
			return d, nil
		case key.Matches(msg, d.keys.Once):
			d.deciding = true
			return d, approveAct{id: d.a.ID}
		case key.Matches(msg, d.keys.Chat):
			d.deciding = true
			return d, approveAct{id: d.a.ID, forChat: true}
		case key.Matches(msg, d.keys.Deny):
			d.deciding = true
			return d, denyAct{id: d.a.ID}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d approvalDialog) view(width, height int, focused bool) string {
	box := paneBox{width, height}
	// Short words, so that deny fits beside the others on a narrow screen.
	hint := style.FocusHint(box.inner(), focused, d.keys.Focus, d.keys.Once, style.Relabel(d.keys.Chat, "for this chat"), d.keys.Deny)
	if d.deciding {
		hint = style.Dim.Render("deciding…")
	}
	return box.draw(style.DialogFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}

// waiting is the line drawn above the form while the user types in it.
func (d approvalDialog) waiting() string {
	return forms.SanitizeLine(d.a.Server) + " asks to run " + forms.SanitizeLine(d.a.Tool) +
		" — the card opens when you pause (" + d.keys.Focus.Help().Key + ")."
}

func (d approvalDialog) body() string {
	a := d.a
	var b strings.Builder
	b.WriteString(style.Bold.Render("Allow "+forms.SanitizeLine(a.Server)+" (MCP server) to run "+forms.SanitizeLine(a.Tool)+"?") + "\n")
	about := forms.PlainLine(cmp.Or(a.Title, a.Annotations.Title))
	if desc := forms.PlainLine(a.Description); desc != "" {
		about = strings.TrimPrefix(about+" — "+desc, " — ")
	}
	if about != "" {
		b.WriteString(style.Dim.Render(about) + "\n")
	}
	if a.Owner != nil {
		b.WriteString(style.Dim.Render(words.AskedBy(*a.Owner)) + "\n")
	}
	b.WriteString(style.Dim.Render("hints: "+forms.SanitizeLine(a.Annotations.Words())) + "\n")
	b.WriteString("\n" + style.Bold.Render("Arguments") + "\n")
	for _, l := range strings.Split(words.PrettyJSON(a.Arguments), "\n") {
		b.WriteString(words.HangingIndent(l, 2, d.box.inner()) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// approvalArrives is the arrivals entry (question.go) of the open chat's
// oldest pending approval.
func approvalArrives(m *model) (dialog, bool) {
	if len(m.mcp.approvals) == 0 || m.archived() || m.cur.newChat {
		return nil, false
	}
	a := m.mcp.approvals[0]
	if a.ChatID != m.cur.chatID {
		return nil, false
	}
	return newApproval(m.keys, a), true
}

// decideApproval allows or denies a tool call.
func decideApproval(svc *chat.Service, id string, forChat, deny bool) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		var d chat.ApprovalDecision
		var err error
		if deny {
			d, err = svc.Deny(ctx, id, "")
		} else {
			d, err = svc.Approve(ctx, id, forChat, "")
		}
		return approvedMsg{id: id, forChat: forChat, deny: deny, d: d, err: err}
	}
}

// onApproved follows a decision: the run goes on (an allowed call is
// made, a denied one is told to the model).
func (m *model) onApproved(msg approvedMsg) tea.Cmd {
	told := m.tell(msg)
	if msg.err != nil {
		m.setErr("", msg.err)
		return tea.Batch(told, m.load(m.cur.chatID))
	}
	what := "the tool call"
	for _, a := range m.mcp.approvals {
		if a.ID == msg.id {
			what = forms.SanitizeLine(a.Server) + " · " + forms.SanitizeLine(a.Tool)
		}
	}
	switch {
	case msg.deny:
		m.setStatus("Denied "+what+" — the agent is told and goes on.", false)
	case msg.forChat:
		m.setStatus("Allowed "+what+" for this chat — it runs without asking here from now on.", false)
	default:
		m.setStatus("Allowed "+what+" once — the call is made.", false)
	}
	m.driving = true
	return tea.Batch(told, m.load(m.cur.chatID), driveRun(m.svc, msg.d.RunID))
}

// doMCP carries out the MCP dialogs' actions.
func (m *model) doMCP(a action) tea.Cmd {
	switch a := a.(type) {
	case approveAct:
		return decideApproval(m.svc, a.id, a.forChat, false)
	case denyAct:
		return decideApproval(m.svc, a.id, false, true)
	case restartServersAct:
		return restartServers(m.svc, a.names)
	}
	return m.doLink(a)
}
