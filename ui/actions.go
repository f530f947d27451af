package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/ui/dialog"
	"followup/ui/words"
)

// open puts d on the stack; it hears the box it is drawn in first. A
// dialog the user opened takes the focus at once; one that arrived by
// itself waits for it by the focus rule.
func (m *model) open(d dialog.Dialog, arrived bool) tea.Cmd {
	d, _ = d.Update(m.dialogSize(d))
	m.dialogs.Push(dialog.Entry{D: d, Arrived: arrived, From: int(m.focus)})
	if d.FullScreen() {
		return nil
	}
	if arrived {
		return m.awaitFocus()
	}
	m.setFocus(focusDialog)
	return nil
}

// closeTop closes the top dialog.
func (m *model) closeTop() { m.refocus(m.dialogs.Pop()) }

// closeAbout closes the dialogs about a question other than keep (""
// every one) and reports whether any closed.
func (m *model) closeAbout(keep string) bool {
	closed := m.dialogs.DropAbout(keep)
	m.refocus(closed)
	return len(closed) > 0
}

// do carries out a dialog's action.
func (m *model) do(a dialog.Action) tea.Cmd {
	switch a := a.(type) {
	case dialog.Close:
		m.closeTop()
	case dialog.Run:
		return a.Cmd
	case dialog.SendPrompt:
		m.closeTop()
		return m.sendPrompt(a.Command, a.Args)
	case dialog.Send:
		r, ok := m.pane.activeRequest()
		if !ok || m.pane.live == nil {
			m.closeTop()
			return nil
		}
		values := m.pane.live.Values()
		m.pane.sent[r.ID] = values // its partial answer is no news from elsewhere
		m.pane.closing(r.ID)
		return submitAnswer(m.svc, r, values, m.pane.shownPartial, m.pane.live.Draft())
	case dialog.Back:
		m.closeTop()
		if m.pane.live != nil {
			m.setFocus(focusForm)
		}
		return m.pane.edit()
	case dialog.Cancel:
		m.closeTop()
		m.pane.closing(a.RequestID)
		r, _ := m.pane.activeRequest() // the question the confirmation asked about
		_, done := words.CancelTells(r)
		return cancelRequest(m.svc, a.RequestID, done)
	case dialog.Stop:
		m.closeTop()
		var closing []string
		for _, r := range m.pane.pending {
			if r.RunID == a.RunID {
				m.pane.closing(r.ID) // its questions expire: task stopped, here
				closing = append(closing, r.ID)
			}
		}
		return stopTask(m.svc, a.RunID, closing...)
	case dialog.Decide:
		var draft map[string]any
		if m.pane.live != nil {
			draft = m.pane.live.Draft()
		}
		m.pane.decidedHere[a.ProposalID] = true // its going is no news
		return decide(m.svc, a.ProposalID, a.Accept, draft)
	case dialog.OpenChat:
		return tea.Batch(m.switchChat(a.ChatID), m.load(m.cur.chatID))
	case dialog.NewChat:
		cmd := tea.Batch(m.switchChat(""), m.countElsewhere())
		m.cur.empty(nil)
		m.tr.Changed()
		m.refreshTranscript()
		return cmd
	case dialog.AskUnread:
		return unreadCmd(m.svc, a.ChatID)
	case dialog.Lifecycle:
		var left tea.Cmd
		if a.Op == dialog.OpDelete && a.ChatID == m.cur.chatID {
			left = m.leaveForNewChat()
			m.setStatus("", false) // it spoke of the chat now gone
		}
		return tea.Batch(left, lifecycleCmd(m.svc, a))
	case dialog.MoreChats:
		return listChats(m.svc, a.After, a.Limit)
	default:
		return m.doMCP(a)
	}
	return nil
}

// tell gives every dialog a message and carries out what they ask.
func (m *model) tell(msg tea.Msg) tea.Cmd {
	acts, closed := m.dialogs.Broadcast(msg)
	m.refocus(closed)
	var cmds []tea.Cmd
	for _, a := range acts {
		cmds = append(cmds, m.do(a))
	}
	return tea.Batch(cmds...)
}
