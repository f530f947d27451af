package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/transcript"
)

// The open chat deleted — from the chat list, or elsewhere (the CLI,
// another window) — takes the screen somewhere that exists, and what was
// typed in the composer goes with the user. Text typed for a conversation
// that is gone stays in the composer of a new chat, where sending it
// starts one; it does not land in another conversation it was not meant
// for. With nothing typed, the screen shows the newest chat left (or the
// empty new chat when none is).

// deletedElsewhere reports whether err says the chat on screen is gone.
func (m *model) deletedElsewhere(chatID string, err error) bool {
	return err != nil && chat.CodeOf(err) == chat.CodeNotFound && chatID != "" && chatID == m.cur.chatID && !m.cur.newChat
}

// chatGone follows the open chat deleted elsewhere, and says so.
func (m *model) chatGone() tea.Cmd {
	if m.composer.Value() != "" {
		cmd := m.leaveForNewChat()
		m.setStatus("This chat was deleted elsewhere; what you typed is kept here, in a new chat.", false)
		return cmd
	}
	m.leaveChat(false)
	m.setStatus("The chat on screen was deleted elsewhere; this is the newest chat left.", false)
	return m.load("")
}

// leaveForNewChat leaves the deleted chat for a new one, the composer's
// text with it, after the new chat's own saved text if it had some.
func (m *model) leaveForNewChat() tea.Cmd {
	m.leaveChat(true)
	if text, known := m.composer.Kept(""); !known {
		return loadComposer(m.svc, "") // adoptComposer puts it first
	} else if text != "" && text != m.composer.Value() {
		m.keepUnsent(text)
	}
	return nil
}

// leaveChat forgets the chat on screen (it is gone); toNew shows the empty
// new chat, else the newest chat once loaded.
func (m *model) leaveChat(toNew bool) {
	m.composer.Forget(m.cur.chatID)
	m.cur.newChat, m.cur.chatID, m.cur.loaded = toNew, "", toNew
	m.cur.empty(nil)
	m.tr = transcript.New() // nothing of the chat gone stays drawn, streaming or thinking
	m.pane.clear()
	m.dropForm()
	m.refreshTranscript()
}
