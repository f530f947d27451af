package ui

import (
	"followup/chat"
	"followup/ui/dialog"
	"followup/ui/transcript"

	tea "github.com/charmbracelet/bubbletea"
)

// A chat's snapshot reaching the screen, and the host's events that ask
// for one.

func (s snapshotMsg) apply(m *model) tea.Cmd {
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
		if !m.cur.loaded && !m.cur.newChat {
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
	if m.cur.newChat || (m.cur.chatID != "" && s.chatID != m.cur.chatID) {
		return nil // a stale load for a chat we left
	}
	if s.seq != 0 {
		if s.seq < m.cur.shownSeq {
			return nil // a load that began before the one on screen
		}
		m.cur.shownSeq = s.seq
	}
	m.cur.loaded = true
	if s.aside != nil || m.unread != nil {
		m.readFailed(s.aside) // a chat read at last, or what could not be read beside it
	}
	opening := m.start.opening
	m.start.opening = false
	m.cur.chatID, m.cur.chat, m.cur.messages, m.cur.requests, m.cur.run = s.chatID, s.chat, s.messages, s.requests, s.run
	m.adoptComposer(s.chatID, s.composer)
	if s.chatID == "" {
		m.cur.orphans = s.orphans // with a chat open, they come with the count of questions elsewhere
	}
	if s.fresh {
		// The text typed in a new chat is the newest thing the user did:
		// the screen stays on that new chat, whatever the others do.
		m.cur.newChat = true
		m.setStatus("Back in the new chat you were typing in — "+m.keys.Chats.Help().Key+" shows your other chats.", false)
	}
	m.mcp.adopt(s.approvals, s.steps)
	m.tr.Adopt(s.entries)
	m.tr.Changed()
	m.tr.Settle(s.seq, s.run, s.messages)
	gone := m.closedUnder(s) // before the pane forgets it
	save, appeared := m.pane.adopt(s, !m.dialogs.Empty())
	m.notice.Moves(s.seq, m.moment(), m.pendingIDs())
	if m.closeAbout(m.pane.activeKey()) {
		m.setStatus("That question changed or closed meanwhile; nothing was sent.", true)
	}
	m.refreshTranscript()
	var await tea.Cmd
	if appeared && m.focus == focusComposer && m.dialogs.Empty() {
		if opening && m.composer.Value() == "" {
			// A question waiting when its chat opens has the focus from
			// the first frame that shows its form: the pause is for a
			// newcomer that interrupts typing.
			m.moves.onInstall = m.now()
		} else {
			await = m.awaitFocus()
		}
	}
	cmds := []tea.Cmd{save, m.ensureForm(), countElsewhere(m.svc, m.cur.chatID, m.width), await}
	cmds = append(cmds, m.tell(dialog.Question(m.questionNow())), m.tell(dialog.Approvals(m.mcp.approvals)))
	cmds = append(cmds, m.arrive(), m.sayClosed(gone, s))
	return tea.Batch(cmds...)
}

func (msg eventMsg) apply(m *model) tea.Cmd {
	e := chat.Event(msg)
	if d, ok := dialog.Find[dialog.Chats](&m.dialogs); ok && (e.Kind == chat.EvChat || e.Kind == chat.EvRequest || e.Kind == chat.EvExternal) {
		// The open chat list reads its chats again — one made, archived or
		// deleted, a question asked or closed, anything another process
		// did — and the screen behind it follows.
		return tea.Batch(listChats(m.svc, "", d.RefreshLimit()), m.onEvent(e))
	}
	return m.onEvent(e)
}

// onEvent follows a change of the database on the screen.
func (m *model) onEvent(e chat.Event) tea.Cmd {
	other := e.ChatID != "" && e.ChatID != m.cur.chatID && !(m.cur.chatID == "" && !m.cur.newChat)
	switch {
	case other && (e.Kind == chat.EvStream || e.Kind == chat.EvThinking || e.Kind == chat.EvProgress):
		return nil
	case e.Kind == chat.EvStream:
		return m.onStream(e)
	case e.Kind == chat.EvProgress:
		m.mcp.setProgress(transcript.StepID(e.RunID, e.ToolCallID), e.Progress)
		return nil
	case e.Kind == chat.EvThinking:
		m.tr.SetThinking(e.On)
		return nil
	case e.Kind == chat.EvMCP:
		return readMCPStatus(m.svc)
	case other || m.cur.newChat:
		// Nothing on screen changed but what waits in other chats, which
		// the notice line counts: it follows every commit too.
		return m.countElsewhere()
	}
	return m.load(m.cur.chatID)
}

// countElsewhere counts again the questions waiting in the chats not on
// screen (all of them, on a new chat).
func (m *model) countElsewhere() tea.Cmd { return countElsewhere(m.svc, m.cur.chatID, m.width) }
