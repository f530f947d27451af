package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// onKey routes a key: quit first, then the top dialog, then the screen's
// own keys, then the focused area. esc and ctrl+c are handled here before
// a form sees them.
func (m *model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if m.matches(msg, k.Quit) {
		return tea.Sequence(m.pane.saveNow(), tea.Quit)
	}
	if o, ok := m.dialogs.top(); ok {
		if !o.arrived || m.settled(o) {
			d, a := o.d.update(msg)
			m.dialogs.replaceTop(d)
			if _, pass := a.(passAct); !pass {
				return m.do(a)
			}
		}
		// Typing, not meant for a dialog that arrived by itself: it goes
		// to the composer, the dialog stays open.
		m.setFocus(focusComposer)
	}
	switch {
	case m.matches(msg, k.Help):
		m.open(newHelp(m.keys), false)
		return nil
	case m.matches(msg, k.Chats):
		m.open(newChats(m.keys.ChatList, m.chatID), false)
		return tea.Batch(m.pane.saveNow(), listChats(m.svc))
	case m.matches(msg, k.ScrollUp):
		m.vp.HalfPageUp()
		m.follow = false
		return m.maybeLoadOlder()
	case m.matches(msg, k.ScrollDown):
		m.vp.HalfPageDown()
		m.follow = m.vp.AtBottom()
		return nil
	case m.matches(msg, k.StopTask):
		if m.run == nil || !(m.run.State == "running" || m.run.State == "waiting_input") {
			m.setStatus("No task is running in this chat.", false)
			return nil
		}
		m.open(newStopConfirm(m.keys.Stop, m.run.ID), false)
		return nil
	case m.matches(msg, k.Resend):
		return m.resumeOrphans()
	}
	if m.pane.live != nil {
		switch {
		case m.matches(msg, k.Focus):
			m.wantFocus = false
			if m.focus == focusForm {
				m.setFocus(focusComposer)
				return m.pane.saveNow()
			}
			m.setFocus(focusForm)
			return nil
		case m.matches(msg, k.NextReq), m.matches(msg, k.PrevReq):
			return m.switchRequest(m.matches(msg, k.NextReq))
		case m.matches(msg, k.CancelReq):
			m.open(newCancelConfirm(m.keys.Cancel, m.questionNow()), false)
			return nil
		}
	}
	if m.focus == focusForm && m.pane.live != nil {
		if m.matches(msg, k.LeaveForm) {
			m.setFocus(focusComposer)
			return m.pane.saveNow()
		}
		return m.updateForm(msg)
	}
	if m.matches(msg, k.Send) {
		return m.sendComposer()
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return cmd
}

// settled reports whether a dialog that arrived by itself may take keys:
// it has been on screen a moment and the composer is empty, so a word
// being typed never decides it.
func (m *model) settled(o openDialog) bool {
	return m.now().Sub(o.since) >= dialogGrace && m.composer.Value() == ""
}

// sendComposer sends the composer's text as a chat message.
func (m *model) sendComposer() tea.Cmd {
	text := strings.TrimSpace(m.composer.Value())
	if text == "" {
		return nil
	}
	if m.archived() {
		m.setStatus("This chat is archived and read-only; start a new chat with "+
			m.keys.Chats.Help().Key+", "+m.keys.ChatList.New.Help().Key+".", true)
		return nil
	}
	m.composer.Reset()
	m.setStatus("", false)
	m.follow = true
	chatID := m.chatID
	if m.newChat {
		chatID = ""
	}
	if chatID == "" {
		// Messages typed while the new chat is being made go to it, in
		// order, once it has an id.
		if m.start.creating {
			m.start.queued = append(m.start.queued, text)
			return nil
		}
		m.start.creating = true
	}
	return sendMessage(m.svc, chatID, text)
}

func (m *model) switchRequest(next bool) tea.Cmd {
	save, ok := m.pane.step(next)
	if !ok {
		return nil
	}
	m.arrive()
	return tea.Batch(save, m.ensureForm())
}

func (m *model) resumeOrphans() tea.Cmd {
	if len(m.orphans) == 0 {
		m.setStatus("No interrupted runs to resume.", false)
		return nil
	}
	var cmds []tea.Cmd
	for _, r := range m.orphans {
		cmds = append(cmds, driveRun(m.svc, r.ID))
	}
	m.orphans = nil
	m.driving = true
	m.setStatus("Resuming interrupted runs…", false)
	return tea.Batch(cmds...)
}

// switchChat leaves the open chat for chatID ("" = a new chat): what was
// streaming and said on the status line stays behind, and each chat keeps
// its own unsent composer text.
func (m *model) switchChat(chatID string) {
	if m.unsent == nil {
		m.unsent = map[string]string{}
	}
	m.unsent[m.chatID] = m.composer.Value()
	m.dialogs.clear()
	m.newChat, m.chatID, m.follow = chatID == "", chatID, true
	m.streaming, m.thinking = "", false
	m.setStatus("", false)
	m.pane.clear()
	m.dropForm()
	m.composer.SetValue(m.unsent[chatID])
}
