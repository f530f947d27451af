package ui

import (
	"followup/chat"

	tea "github.com/charmbracelet/bubbletea"
)

// A chat's snapshot reaching the screen, and the host's events that ask
// for one.

func (m *model) onSnapshot(s snapshotMsg) tea.Cmd {
	// A read that failed because the file is gone is said by the
	// read-only line, in words, instead of the read's error.
	fileGone := s.err != nil && m.svc != nil && m.svc.FileGone() != ""
	if m.svc != nil && m.svc.ReadOnly() != m.readOnly {
		// The database file was removed or replaced at its path: from
		// now on the screen says so, as for a read-only file.
		m.readOnly = m.svc.ReadOnly()
		m.saver.setOff(m.readOnly != "")
	}
	if s.err != nil {
		if fileGone {
			return nil
		}
		if m.deletedElsewhere(s.chatID, s.err) {
			return m.chatGone()
		}
		if !m.loaded && !m.newChat {
			// Nothing is on screen: where the chat would be, it says why.
			m.readFailed(&readFailure{s.errWhat, s.err})
			return nil
		}
		if m.turnedTo(s) {
			return m.chatUnread(s)
		}
		m.setErr(s.errWhat, s.err)
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
	if s.aside != nil || m.unread != nil {
		m.readFailed(s.aside) // a chat read at last, or what could not be read beside it
	}
	opening := m.start.opening
	m.start.opening = false
	m.chatID, m.chat, m.messages, m.requests, m.run = s.chatID, s.chat, s.messages, s.requests, s.run
	m.adoptComposer(s.chatID, s.composer)
	if s.chatID == "" {
		m.orphans = s.orphans // with a chat open, they come with the count of questions elsewhere
	}
	if s.fresh {
		// The text typed in a new chat is the newest thing the user did:
		// the screen stays on that new chat, whatever the others do.
		m.newChat = true
		m.setStatus("Back in the new chat you were typing in — "+m.keys.Chats.Help().Key+" shows your other chats.", false)
	}
	m.mcp.adopt(s.mcp)
	m.tr.adopt(s.entries)
	m.tr.changed()
	m.settleStream(s)
	gone := m.closedUnder(s) // before the pane forgets it
	save, appeared := m.pane.adopt(s, !m.dialogs.empty())
	m.notice.Moves(s.seq, m.moment(), m.pendingIDs())
	if m.closeAbout(m.pane.activeKey()) {
		m.setStatus("That question changed or closed meanwhile; nothing was sent.", true)
	}
	m.refreshTranscript()
	var await tea.Cmd
	if appeared && m.focus == focusComposer && m.dialogs.empty() {
		if opening && m.composer.Value() == "" {
			// A question waiting when its chat opens has the focus from
			// the first frame that shows its form: the pause is for a
			// newcomer that interrupts typing.
			m.focusOnInstall = m.now()
		} else {
			await = m.awaitFocus()
		}
	}
	cmds := []tea.Cmd{save, m.ensureForm(), countElsewhere(m.svc, m.chatID, m.width), await}
	cmds = append(cmds, m.tell(questionMsg(m.questionNow())), m.tell(approvalsMsg(m.mcp.approvals)))
	cmds = append(cmds, m.arrive(), m.sayClosed(gone, s))
	return tea.Batch(cmds...)
}

func (m *model) onEvent(e chat.Event) tea.Cmd {
	if d, ok := find[chatsDialog](&m.dialogs); ok && e.Kind == chat.EvChat {
		list := listChats(m.svc, "", d.refreshLimit())
		if e.ChatID == m.chatID && !m.newChat {
			// Archived or unarchived from the list: the screen behind it
			// follows.
			return tea.Batch(list, m.load(m.chatID))
		}
		return list
	}
	other := e.ChatID != "" && e.ChatID != m.chatID && !(m.chatID == "" && !m.newChat)
	switch {
	case other && (e.Kind == chat.EvStream || e.Kind == chat.EvThinking):
		return nil
	case e.Kind == chat.EvStream:
		return m.onStream(e)
	case e.Kind == chat.EvThinking:
		m.thinking = e.On
		return nil
	case e.Kind == chat.EvMCP:
		return readMCPStatus(m.svc)
	case other || m.newChat:
		// Nothing on screen changed but what waits in other chats, which
		// the notice line counts: it follows every commit too.
		return m.countElsewhere()
	}
	return m.load(m.chatID)
}

// countElsewhere counts again the questions waiting in the chats not on
// screen (all of them, on a new chat).
func (m *model) countElsewhere() tea.Cmd { return countElsewhere(m.svc, m.chatID, m.width) }
