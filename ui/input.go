package ui

import (
	"strings"

	"followup/ui/dialog"
	"followup/ui/transcript"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// suspend gives the terminal back to the shell as a stopped job (ctrl+z);
// what was typed is saved first: a suspended job may never come back to
// the foreground.
func (m *model) suspend() tea.Cmd { return tea.Sequence(m.saveAll(), tea.Suspend) }

// onKey routes a key: quit first, then a full-screen dialog (it takes
// every key), then the dialog with the focus, then the screen's own keys,
// then the form or the composer, whichever has the focus. esc and ctrl+c
// are handled here before a form sees them.
func (m *model) onKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if key.Matches(msg, k.Quit) {
		return tea.Sequence(m.saveAll(), tea.Quit)
	}
	if key.Matches(msg, k.Suspend) {
		return m.suspend()
	}
	if _, ok := m.dialogs.Screen(); ok {
		cmd, _ := m.keyToDialog(msg)
		return cmd
	}
	if m.strayKey(msg) {
		// The newcomer waits again: it takes the focus after the next
		// pause, not only after the next key.
		var check tea.Cmd
		if !m.moves.ticking { // a check on its way measures the pause from this key too
			check = m.focusCheck()
		}
		return tea.Batch(check, m.onKey(msg))
	}
	if _, ok := m.dialogs.Pane(); ok && m.focus == focusDialog {
		if cmd, took := m.keyToDialog(msg); took {
			return cmd
		}
	}
	if cmd, ok := m.onScreenKey(msg); ok {
		return cmd
	}
	switch {
	case m.focus == focusDialog:
		if msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace {
			// Text typed at a dialog: say where typing goes.
			m.setStatus("Keys go to the dialog; "+m.keys.Focus.Help().Key+" types in the composer.", false)
		}
		return nil
	case m.focus == focusForm && m.pane.live != nil:
		// esc leaves the form unless the focused field takes it now
		// (ending or clearing a list's filter).
		if key.Matches(msg, k.LeaveForm) && !key.Matches(msg, m.pane.live.KeyBinds()...) {
			m.setFocus(focusComposer)
			return m.pane.saveNow()
		}
		if msg.Type != tea.KeyRunes && msg.Type != tea.KeySpace {
			return m.updateForm(msg)
		}
		before := m.pane.live.View()
		cmd := m.updateForm(msg)
		if m.focus == focusForm && m.pane.live != nil && m.pane.live.View() == before {
			// Text typed at a field that takes none (a choice, a yes or
			// no): say where typing goes, as at a dialog.
			m.setStatus("Keys go to the form; "+m.keys.Focus.Help().Key+" types in the composer.", false)
		}
		return cmd
	case len(m.composer.Matching()) > 0 && key.Matches(msg, k.CommandNext, k.CommandPrev):
		m.composer.MoveChoice(map[bool]int{true: 1, false: -1}[key.Matches(msg, k.CommandNext)])
		return nil
	case key.Matches(msg, k.Send):
		return m.sendComposer()
	case key.Matches(msg, k.HelpQ) && m.composer.Value() == "":
		return m.open(dialog.NewHelp(m.keys.Keys, m.keys.sections()), false)
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return cmd
}

// keyToDialog gives the top dialog a key and carries out what it asks; it
// reports whether the dialog took the key.
func (m *model) keyToDialog(msg tea.KeyMsg) (tea.Cmd, bool) {
	a := m.dialogs.UpdateTop(msg)
	if a == (dialog.Pass{}) {
		return nil, false
	}
	m.afterDecision(a)
	return m.do(a), true
}

// onScreenKey handles the screen's own keys, which apply wherever the
// focus is; it reports whether msg was one.
func (m *model) onScreenKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Help):
		return m.open(dialog.NewHelp(m.keys.Keys, m.keys.sections()), false), true
	case key.Matches(msg, k.Chats):
		d := dialog.NewChats(m.keys.Keys, m.cur.chatID, m.cur.newChat, m.composer.Value())
		return tea.Batch(m.pane.saveNow(), m.open(d, false), listChats(m.svc, "", dialog.ChatPage(m.height))), true
	case key.Matches(msg, k.ScrollUp):
		m.tr.ScrollUp()
		return m.maybeLoadOlder(), true
	case key.Matches(msg, k.ScrollDown):
		m.tr.ScrollDown()
		return nil, true
	case key.Matches(msg, k.StopTask):
		if m.cur.run == nil || !m.cur.run.State.Active() {
			m.setStatus("No task is running in this chat.", false)
			return nil, true
		}
		return m.open(dialog.NewStopConfirm(m.keys.Keys, m.cur.run.ID), false), true
	case key.Matches(msg, k.Resend):
		return m.retry(), true
	case key.Matches(msg, k.ToolRows):
		m.toggleRows()
		return nil, true
	case key.Matches(msg, k.Servers):
		return m.open(dialog.NewServers(m.keys.Keys, m.mcp.status, m.resourceLinks()), false), true
	case key.Matches(msg, k.Skills):
		return m.open(dialog.NewSkills(m.keys.Keys, m.svc.Skills()), false), true
	case key.Matches(msg, k.Focus) && (m.pane.live != nil || m.hasPaneDialog()):
		return m.toggleFocus(), true
	case key.Matches(msg, k.NextReq, k.PrevReq) && m.pane.live == nil && len(m.pane.pending) == 0:
		if r, ok := m.otherAt(key.Matches(msg, k.NextReq)); ok { // this chat has none: the inbox's
			return m.goToQuestion(r), true
		}
		return nil, false
	case key.Matches(msg, k.ReadAll):
		if r, ok := m.pane.activeRequest(); ok && r.Reason != "" {
			return m.open(dialog.NewReadPage(m.keys.Keys, r), false), true
		}
		return nil, false
	case m.pane.live == nil:
		return nil, false
	case key.Matches(msg, k.NextReq, k.PrevReq):
		return m.switchRequest(key.Matches(msg, k.NextReq)), true
	case key.Matches(msg, k.CancelReq):
		return m.open(dialog.NewCancelConfirm(m.keys.Keys, m.questionNow()), false), true
	}
	return nil, false
}

// sendComposer sends the composer's text as a chat message.
func (m *model) sendComposer() tea.Cmd {
	text := strings.TrimSpace(m.composer.Value())
	// Messages typed while the new chat is being made go to it, in order,
	// once it has an id; attachments wait in the composer meanwhile.
	chatID := m.cur.sendTo()
	queue := chatID == "" && m.start.creating
	if text == "" && (queue || len(m.composer.Attached()) == 0) {
		return nil
	}
	if m.archived() {
		// The text stays in the composer: nothing typed is lost.
		m.setStatus("This chat is archived and read-only: "+m.unarchiveHint()+", or "+
			m.keys.Chats.Help().Key+", "+m.keys.ChatList.New.Help().Key+" starts a new chat.", true)
		return nil
	}
	if s := m.serveChat(); s != nil && !m.cur.newChat {
		// The text stays in the composer: nothing typed is lost.
		m.setStatus(clientName(s.Client)+" reads only answers here, not messages; start a new chat with "+
			m.keys.Chats.Help().Key+", "+m.keys.ChatList.New.Help().Key+".", true)
		return nil
	}
	if c, ok := m.composer.Chosen(); ok {
		return m.runCommand(c)
	}
	m.composer.Reset()
	m.setStatus("", false)
	m.tr.Follow()
	emptied := m.sentComposer(chatID)
	if queue {
		m.start.queued = append(m.start.queued, text)
		return emptied
	}
	m.start.creating = m.start.creating || chatID == ""
	return tea.Batch(emptied, sendMessage(m.svc, chatID, text, m.composer.TakeAttached()...))
}

func (m *model) switchRequest(next bool) tea.Cmd {
	if r, ok := m.otherAt(next); ok {
		return m.goToQuestion(r)
	}
	save, ok := m.pane.step(next)
	if !ok {
		return nil
	}
	// Dialogs about the question left close; the one shown may bring its own.
	m.closeAbout(m.pane.activeKey())
	return tea.Batch(save, m.ensureForm(), m.arrive())
}

// switchChat leaves the open chat for chatID ("" = a new chat): what was
// streaming and said on the status line stays behind, and each chat keeps
// its own unsent composer text, saved as the chat's draft.
func (m *model) switchChat(chatID string) tea.Cmd {
	save := m.saveComposer()
	m.dialogs.Clear()
	m.cur.newChat, m.cur.chatID = chatID == "", chatID
	m.tr = transcript.New() // the chat left behind keeps no drawing, stream or thinking
	m.setStatus("", false)
	m.cur.others, m.cur.elsewhere = nil, -1 // counted again for the chat shown
	m.start.opening = true
	m.pane.clear()
	m.dropForm()
	return tea.Batch(save, m.showComposerOf(chatID))
}

// onKeyMsg takes a key: typed before the database opened, it waits; a
// burst of letters spelling a key's name is taken a letter at a time.
func (m *model) onKeyMsg(msg tea.KeyMsg) tea.Cmd {
	if m.tooSmall() && !key.Matches(msg, m.keys.Quit) {
		// The screen says only that it is too small: a key typed at it
		// would act on a form or composer the user cannot see.
		return nil
	}
	if m.svc == nil {
		if msg.Type == tea.KeyCtrlC {
			return tea.Quit
		}
		m.start.early = append(m.start.early, msg)
		return nil
	}
	prev := m.moves.lastKey
	m.moves.lastKey = m.now()
	if m.dropsKey(msg, prev, m.moves.lastKey) {
		return nil // typed in the burst of a decision (burst.go)
	}
	m.setStatus("", false) // a status speaks of the moment before this key
	var check tea.Cmd
	if m.moves.waiting && !m.moves.ticking {
		check = m.focusCheck() // the pause starts again (a check on its way waits for it too)
	}
	if spellsAKey(msg) {
		// Typed text arrives in bursts: "enter" or "up" typed quickly is
		// text, not the key it names. Feed it one letter at a time.
		cmds := []tea.Cmd{check}
		for _, r := range msg.Runes {
			if m.moves.muted && m.focus != focusComposer {
				break // the letters after a decision's (burst.go)
			}
			cmds = append(cmds, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
		}
		return tea.Batch(cmds...)
	}
	return tea.Batch(check, m.onKey(msg))
}
