package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
)

// A read the screen needs that failed — which chat to open, the chat
// itself, the chats beside the new one — is said where the chat would be,
// in words with the code dim after them, and stays said until a read
// succeeds: a damaged database never shows as an empty one. What the user
// types meanwhile stays in the composer (and is kept as the new chat's
// draft, where a message would go).

// readFailure is a read that failed, and what it was reading, as the
// start of a sentence ("Could not read your chats: ").
type readFailure struct {
	what string
	err  error
}

// Words for what the screen was reading.
const (
	readingChats  = "Could not read your chats: "
	readingChat   = "Could not read the chat: "
	readingOthers = "Could not read your other chats: "
	readingDraft  = "Could not read the text typed in the new chat: "
	readingRuns   = "Could not read the interrupted runs: "
)

// firstFailure is the first of the reads that failed (nil when none did).
func firstFailure(reads ...readFailure) *readFailure {
	for _, r := range reads {
		if r.err != nil {
			return &r
		}
	}
	return nil
}

// readFailed takes the failure of the screen's first read: it is said
// where the chat would be, until a read succeeds.
func (m *model) readFailed(f *readFailure) {
	m.unread = f
	if f == nil {
		f = &readFailure{} // a read succeeded: nothing to say
	}
	m.tr.SetUnread(f.what, f.err)
	m.refreshTranscript()
}

// turnedTo reports whether s is the failed read of the chat the screen
// turned to, whose messages are not yet on screen: the composer already
// sends there (ctrl+o says it is here), so nothing of the chat left may
// stay in view as if it were this one.
func (m *model) turnedTo(s snapshotMsg) bool {
	if m.cur.newChat || s.chatID == "" || s.chatID != m.cur.chatID || s.seq != 0 && s.seq < m.cur.shownSeq {
		return false
	}
	return m.unread != nil || m.cur.chat == nil || m.cur.chat.ID != s.chatID
}

// chatUnread takes the failed read of the chat turned to: the screen is
// on that chat, with the failure said in full where its transcript would
// be, under its title when that could be read, until a read succeeds.
// The chat's unsent text, which came with the read, is read alone.
func (m *model) chatUnread(s snapshotMsg) tea.Cmd {
	if s.seq != 0 {
		m.cur.shownSeq = s.seq
	}
	m.cur.empty(s.chat)
	m.mcp.adopt(nil, nil)
	m.tr.ClearStream()
	m.pane.clear()
	m.dropForm()
	what := readingChat
	if s.chat != nil && s.chat.Title != "" {
		what = "Could not read the chat “" + forms.PlainLine(s.chat.Title) + "”: "
	}
	m.readFailed(&readFailure{what, s.err})
	if _, known := m.composer.Kept(s.chatID); known {
		return nil
	}
	return loadComposer(m.svc, s.chatID)
}
