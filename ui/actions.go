package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// An action is what a dialog asks the root to do. nil asks nothing.
type action interface{ isAction() }

type (
	// closeAct closes the dialog.
	closeAct struct{}
	// passAct: the dialog did not take the key; the screen routes it on.
	passAct struct{}
	// sendAct sends the reviewed answer (the review stays until it lands).
	sendAct struct{}
	// backAct goes back from the review to the form, on the field to fix.
	backAct struct{}
	// cancelAct cancels one question.
	cancelAct struct{ requestID string }
	// stopAct stops the task.
	stopAct struct{ runID string }
	// decideAct accepts or rejects a proposal.
	decideAct struct {
		proposalID string
		accept     bool
	}
	// openChatAct shows another chat; newChatAct an empty new one.
	openChatAct struct{ chatID string }
	newChatAct  struct{}
	// archiveAct archives a chat, or unarchives an archived one;
	// deleteAct deletes one.
	archiveAct struct {
		chatID    string
		title     string
		unarchive bool
		limit     int // how many chats the list shows after
	}
	// deleteAct deletes a chat, or with ask only reads what its deletion
	// would throw away (unreadMsg).
	deleteAct struct {
		chatID string
		title  string
		limit  int
		ask    bool
	}
	// moreChatsAct reads the page of limit chats after the cursor after.
	moreChatsAct struct {
		after string
		limit int
	}
)

func (closeAct) isAction()     {}
func (passAct) isAction()      {}
func (sendAct) isAction()      {}
func (backAct) isAction()      {}
func (cancelAct) isAction()    {}
func (stopAct) isAction()      {}
func (decideAct) isAction()    {}
func (openChatAct) isAction()  {}
func (newChatAct) isAction()   {}
func (archiveAct) isAction()   {}
func (deleteAct) isAction()    {}
func (moreChatsAct) isAction() {}

// open puts d on the stack; it hears the box it is drawn in first. A
// dialog the user opened takes the focus at once; one that arrived by
// itself waits for it by the focus rule.
func (m *model) open(d dialog, arrived bool) tea.Cmd {
	d, _ = d.update(m.dialogSize(d))
	m.dialogs.push(openDialog{d: d, arrived: arrived, from: m.focus})
	if d.fullScreen() {
		return nil
	}
	if arrived {
		return m.awaitFocus()
	}
	m.setFocus(focusDialog)
	return nil
}

// closeTop closes the top dialog.
func (m *model) closeTop() { m.refocus(m.dialogs.pop()) }

// closeAbout closes the dialogs about a question other than keep (""
// every one) and reports whether any closed.
func (m *model) closeAbout(keep string) bool {
	closed := m.dialogs.dropAbout(keep)
	m.refocus(closed)
	return len(closed) > 0
}

// do carries out a dialog's action.
func (m *model) do(a action) tea.Cmd {
	switch a := a.(type) {
	case closeAct:
		m.closeTop()
	case sendAct:
		r, ok := m.activeRequest()
		if !ok || m.pane.live == nil {
			m.closeTop()
			return nil
		}
		values := m.pane.live.Values()
		m.pane.noteSent(r.ID, values)
		m.pane.closing(r.ID)
		return submitAnswer(m.svc, r, values, m.pane.shownPartial, m.pane.live.Draft())
	case backAct:
		m.closeTop()
		if m.pane.live != nil {
			m.setFocus(focusForm)
		}
		return m.pane.edit()
	case cancelAct:
		m.closeTop()
		m.pane.closing(a.requestID)
		return cancelRequest(m.svc, a.requestID)
	case stopAct:
		m.closeTop()
		var closing []string
		for _, r := range m.pane.pending {
			if r.RunID == a.runID {
				m.pane.closing(r.ID) // its questions expire: task stopped, here
				closing = append(closing, r.ID)
			}
		}
		return stopTask(m.svc, a.runID, closing...)
	case decideAct:
		var draft map[string]any
		if m.pane.live != nil {
			draft = m.pane.live.Draft()
		}
		m.pane.decided(a.proposalID)
		return decide(m.svc, a.proposalID, a.accept, draft)
	case openChatAct:
		return tea.Batch(m.switchChat(a.chatID), m.load(m.cur.chatID))
	case newChatAct:
		cmd := tea.Batch(m.switchChat(""), m.countElsewhere())
		m.cur.chat, m.cur.messages, m.cur.run = nil, nil, nil
		m.cur.requests = map[string]chat.RequestView{}
		m.tr.changed()
		m.refreshTranscript()
		return cmd
	case archiveAct:
		op := opArchive
		if a.unarchive {
			op = opUnarchive
		}
		return lifecycleCmd(m.svc, op, a.chatID, a.title, a.limit)
	case deleteAct:
		if a.ask {
			return unreadCmd(m.svc, a.chatID)
		}
		var left tea.Cmd
		if a.chatID == m.cur.chatID {
			left = m.leaveForNewChat()
			m.setStatus("", false) // it spoke of the chat now gone
		}
		return tea.Batch(left, lifecycleCmd(m.svc, opDelete, a.chatID, a.title, a.limit))
	case moreChatsAct:
		return listChats(m.svc, a.after, a.limit)
	default:
		return m.doMCP(a)
	}
	return nil
}

// tell gives every dialog a message and carries out what they ask.
func (m *model) tell(msg tea.Msg) tea.Cmd {
	acts, closed := m.dialogs.broadcast(msg)
	m.refocus(closed)
	var cmds []tea.Cmd
	for _, a := range acts {
		cmds = append(cmds, m.do(a))
	}
	return tea.Batch(cmds...)
}
