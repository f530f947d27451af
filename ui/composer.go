package ui

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// The composer's unsent text is a draft of its chat (docs/behaviour.md): saved
// through the saver autosaveDelay after the last key that changed it, on
// leaving the chat, on sending (empty) and on quitting; read back with the
// chat's snapshot. A chat not made yet (the new chat, or no chat at all)
// keeps its text under chat id "".
//
// The composer keeps the screen's copy of each chat's draft (Kept): newer
// than any snapshot read before its save landed, so a chat left and shown
// again gets its text back at once.

// composerSaveMsg fires after the user paused typing in the composer.
type composerSaveMsg struct{ seq int }

func (msg composerSaveMsg) apply(m *model) tea.Cmd {
	if msg.seq == m.composer.Seq() {
		return m.saveComposer()
	}
	return nil
}

// composerSavedMsg reports a composer draft's write.
type composerSavedMsg struct {
	chatID string
	err    error
}

// A composerSavedMsg reports a draft that could not be kept. A chat
// deleted meanwhile is no failure: the text stays on screen and goes with
// the user (deleted.go).
func (msg composerSavedMsg) apply(m *model) tea.Cmd {
	if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeNotFound {
		m.setErr("Unsent text not saved: ", msg.err)
	}
	return nil
}

// composerLoadedMsg brings a chat's saved composer text.
type composerLoadedMsg struct {
	chatID string
	text   string
	err    error // it could not be read: the screen keeps what it has
}

func (msg composerLoadedMsg) apply(m *model) tea.Cmd {
	// A draft that could not be read is not an empty one: taken as
	// one, the next autosave would write over it.
	if msg.err == nil && msg.chatID == m.cur.chatID && m.cur.newChat == (msg.chatID == "") {
		m.adoptComposer(msg.chatID, msg.text)
	}
	return nil
}

// composerEdited schedules an autosave when the composer's text changed
// since it was last looked at.
func (m *model) composerEdited() tea.Cmd {
	seq, changed := m.composer.Changed()
	if !changed {
		return nil
	}
	return tea.Tick(autosaveDelay, func(time.Time) tea.Msg { return composerSaveMsg{seq} })
}

// saveComposer saves the composer's text as the open chat's draft now,
// unless that is what the store already has (or is being given).
func (m *model) saveComposer() tea.Cmd {
	if m.svc == nil || !m.cur.loaded && !m.cur.newChat && m.unread == nil {
		return nil // no chat is on screen yet: the keys typed are replayed into it
	}
	chatID, text := m.cur.chatID, m.composer.Value()
	m.composer.Looked() // a scheduled autosave has nothing left to do
	if old, known := m.composer.Kept(chatID); known && old == text {
		return nil
	}
	return m.putComposer(chatID, text)
}

// putComposer asks the saver to write text as chatID's composer draft.
func (m *model) putComposer(chatID, text string) tea.Cmd {
	m.composer.Keep(chatID, text)
	svc := m.svc
	done := m.saver.put("composer:"+chatID, func(ctx context.Context) error {
		return svc.SaveComposerDraft(ctx, chatID, text)
	})
	return savedCmd(done, func(err error) tea.Msg { return composerSavedMsg{chatID, err} })
}

// adoptComposer takes a chat's saved composer text from a snapshot when
// the screen has none of its own for that chat yet. Text typed meanwhile
// (an instant after a switch) is kept after the saved text.
func (m *model) adoptComposer(chatID, stored string) {
	if _, known := m.composer.Kept(chatID); known {
		return
	}
	m.composer.Keep(chatID, stored)
	switch cur := m.composer.Value(); {
	case stored == "" || cur == stored:
	case cur == "":
		m.composer.SetValue(stored)
		m.composer.Looked()
	default:
		m.composer.SetValue(stored + "\n" + cur) // composerEdited saves the two
	}
}

// loadComposer reads a chat's saved composer text.
func loadComposer(svc *chat.Service, chatID string) tea.Cmd {
	return func() tea.Msg {
		text, err := svc.ComposerDraft(context.Background(), chatID)
		return composerLoadedMsg{chatID, text, err}
	}
}

// showComposerOf puts chatID's unsent text in the composer as the screen
// moves there (switchChat); one it has not read yet comes with the chat's
// snapshot, or, for a new chat, is read now.
func (m *model) showComposerOf(chatID string) tea.Cmd {
	text, known := m.composer.Kept(chatID)
	m.composer.SetValue(text)
	m.composer.Looked()
	if !known && chatID == "" {
		return loadComposer(m.svc, "")
	}
	return nil
}

// sentComposer follows a message sent from the composer: the draft it was
// sent from is empty now. The host deletes it with the message too; this
// write keeps an older autosave still waiting from bringing it back.
func (m *model) sentComposer(chatID string) tea.Cmd {
	m.composer.Looked()
	return m.putComposer(chatID, m.composer.Value())
}

// saveAll asks for every pending draft to be saved: the form's and the
// composer's. Run waits for them before the program exits.
func (m *model) saveAll() tea.Cmd {
	return tea.Batch(m.pane.saveNow(), m.saveComposer())
}

// flush saves every pending draft and waits for the writes, at most d:
// after the program has ended, whatever ended it.
func (m *model) flush(d time.Duration) {
	if m.svc == nil {
		return
	}
	m.saveAll() // the results are not waited for as messages: wait does
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	m.saver.wait(ctx)
}

// keepUnsent puts text that could not be sent back in the composer, before
// what was typed since: nothing typed is lost.
func (m *model) keepUnsent(texts ...string) {
	var parts []string
	for _, t := range texts {
		if t != "" {
			parts = append(parts, t)
		}
	}
	if cur := m.composer.Value(); cur != "" {
		parts = append(parts, cur)
	}
	m.composer.SetValue(strings.Join(parts, "\n"))
}
