package ui

import (
	"followup/chat"

	tea "github.com/charmbracelet/bubbletea"
)

// A chat's snapshot reaching the screen, and the host's events that ask
// for one.

func (m *model) onSnapshot(s snapshotMsg) tea.Cmd {
	if s.err != nil {
		if m.deletedElsewhere(s.chatID, s.err) {
			return m.chatGone()
		}
		m.setStatus(errText(s.err), true)
		return nil
	}
	if m.newChat || (m.chatID != "" && s.chatID != m.chatID) {
		return nil // a stale load for a chat we left
	}
	if s.seq != 0 {
		if s.seq < m.shownSeq {
			return nil // a load that began before the one on screen
		}
		m.shownSeq = s.seq
	}
	m.loaded = true
	m.chatID, m.chat, m.messages, m.requests, m.run = s.chatID, s.chat, s.messages, s.requests, s.run
	m.adoptComposer(s.chatID, s.composer)
	if s.chatID == "" {
		m.orphans = s.orphans // with a chat open, they come with the count of questions elsewhere
	}
	m.tr.adopt(s.entries)
	m.tr.changed()
	m.settleStream(s)
	save, appeared := m.pane.adopt(s, !m.dialogs.empty())
	m.statusMoves()
	if m.closeAbout(m.pane.activeKey()) {
		m.setStatus("That question changed or closed meanwhile; nothing was sent.", true)
	}
	m.refreshTranscript()
	cmds := []tea.Cmd{save, m.ensureForm(), countElsewhere(m.svc, m.chatID)}
	cmds = append(cmds, m.tell(questionMsg(m.questionNow())))
	if appeared && m.focus == focusComposer && m.dialogs.empty() {
		cmds = append(cmds, m.awaitFocus())
	}
	cmds = append(cmds, m.arrive())
	return tea.Batch(cmds...)
}

func (m *model) onEvent(e chat.Event) tea.Cmd {
	if d, ok := find[chatsDialog](&m.dialogs); ok && e.Kind == chat.EvChat {
		return listChats(m.svc, "", d.refreshLimit())
	}
	if e.ChatID != "" && e.ChatID != m.chatID && !(m.chatID == "" && !m.newChat) {
		return nil
	}
	switch e.Kind {
	case chat.EvStream:
		return m.onStream(e)
	case chat.EvThinking:
		m.thinking = e.On
		return nil
	}
	return m.load(m.chatID)
}
