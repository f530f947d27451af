package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
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
	// archiveAct archives a chat; deleteAct deletes one.
	archiveAct struct{ chatID string }
	deleteAct  struct{ chatID string }
)

func (closeAct) isAction()    {}
func (passAct) isAction()     {}
func (sendAct) isAction()     {}
func (backAct) isAction()     {}
func (cancelAct) isAction()   {}
func (stopAct) isAction()     {}
func (decideAct) isAction()   {}
func (openChatAct) isAction() {}
func (newChatAct) isAction()  {}
func (archiveAct) isAction()  {}
func (deleteAct) isAction()   {}

// question is what the dialogs about the shown question show of it; the
// root sends it to them (questionMsg) after every snapshot.
type question struct {
	key      string // liveKey
	req      chat.RequestView
	mine     forms.Values    // the form's values now
	shown    forms.Values    // what a review sends, number text as typed
	problems []forms.Problem // what is wrong with sending it
}

// questionMsg brings the shown question as it is now.
type questionMsg question

// questionNow is the shown question for the dialogs about it.
func (m *model) questionNow() question {
	r, ok := m.activeRequest()
	if !ok {
		return question{}
	}
	q := question{key: liveKey(r), req: r, mine: forms.Values{}, problems: m.pane.problems}
	if l := m.pane.live; l != nil {
		q.mine = l.Values()
		// Show what was typed, even number text that does not parse.
		q.shown = mergeValues(r.Partial, q.mine)
		raw := l.RawText()
		for _, p := range l.Problems() {
			if name := trimValuesPath(p.Path); raw[name] != "" {
				q.shown[name] = raw[name]
			}
		}
	}
	return q
}

// dialogSize is the box a dialog is drawn in.
func (m *model) dialogSize(d dialog) sizeMsg { return sizeMsg{m.width, m.height} }

// open puts d on the stack; it hears the box it is drawn in first.
func (m *model) open(d dialog, arrived bool) {
	d, _ = d.update(m.dialogSize(d))
	m.dialogs.push(d, m.now(), arrived)
}

// do carries out a dialog's action.
func (m *model) do(a action) tea.Cmd {
	switch a := a.(type) {
	case closeAct:
		m.dialogs.pop()
	case sendAct:
		r, ok := m.activeRequest()
		if !ok || m.pane.live == nil {
			m.dialogs.pop()
			return nil
		}
		return submitAnswer(m.svc, r, m.pane.live.Values())
	case backAct:
		m.dialogs.pop()
		return m.pane.edit()
	case cancelAct:
		m.dialogs.pop()
		return cancelRequest(m.svc, a.requestID)
	case stopAct:
		m.dialogs.pop()
		return stopTask(m.svc, a.runID)
	case decideAct:
		var draft map[string]any
		if m.pane.live != nil {
			draft = m.pane.live.Draft()
		}
		return decide(m.svc, a.proposalID, a.accept, draft)
	case openChatAct:
		m.switchChat(a.chatID)
		return m.load(m.chatID)
	case newChatAct:
		m.switchChat("")
		m.chat, m.messages, m.run = nil, nil, nil
		m.requests = map[string]chat.RequestView{}
		m.tr.changed()
		m.refreshTranscript()
	case archiveAct:
		return lifecycleCmd(m.svc, a.chatID, false)
	case deleteAct:
		if a.chatID == m.chatID {
			m.newChat, m.chatID, m.chat, m.messages, m.run = true, "", nil, nil, nil
			m.setStatus("", false) // it spoke of the chat now gone
			m.tr.changed()
			m.pane.clear()
			m.dropForm()
			m.refreshTranscript()
		}
		return lifecycleCmd(m.svc, a.chatID, true)
	}
	return nil
}

// tell gives every dialog a message and carries out what they ask.
func (m *model) tell(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, a := range m.dialogs.broadcast(msg) {
		cmds = append(cmds, m.do(a))
	}
	return tea.Batch(cmds...)
}
