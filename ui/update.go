package ui

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/status"
	"followup/ui/transcript"
)

// Update implements tea.Model.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if e, ok := msg.(eventMsg); ok && (e.Kind == chat.EvStream || e.Kind == chat.EvProgress) {
		// Nothing on screen changes until the next frame draws it.
		return m, m.update(msg)
	}
	gen := m.notice.Gen()
	cmd := m.update(msg)
	if n := m.pane.notice; n != "" {
		m.pane.notice = ""
		// What the pane did by itself (confirmed.go), on the snapshot just
		// taken: that is the moment it speaks of.
		m.setStatus(n, false)
		m.notice.Mark(m.moment())
	}
	switch msg.(type) {
	case tea.KeyMsg, serviceMsg, sentMsg, composerLoadedMsg, snapshotMsg:
		// What may have changed the composer's text: its draft is saved
		// after a pause (composer.go).
		cmd = tea.Batch(cmd, m.composerEdited())
	}
	cmd = tea.Batch(cmd, m.notice.Ended(gen))
	cmd = tea.Batch(cmd, m.spinAgain())
	m.arrange()
	m.showFormFocus() // a form installed by this message too
	if rest := m.tr.DrawRest(m.trIn()); rest != nil {
		cmd = tea.Batch(cmd, rest)
	}
	return m, cmd
}

// update routes a message: the root's own carry what the screen does
// with them (handler); the children's go to them; the rest go to the form
// or the composer.
func (m *model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case handler:
		return msg.apply(m)
	case dialog.ServerStatus:
		return m.onServerStatus(msg)
	case transcript.EntriesMsg:
		m.tr.OnEntries(msg, m.trIn())
		return nil
	case transcript.FrameMsg:
		if m.tr.OnFrame() {
			m.refreshTranscript()
		}
		return nil
	case tea.WindowSizeMsg:
		return m.resize(msg)
	case tea.KeyMsg:
		return m.onKeyMsg(msg)
	case spinner.TickMsg:
		return m.onSpinTick(msg)
	case status.EndMsg:
		if msg.Gen == m.notice.Gen() && !(len(m.retrying.runs) > 0 && m.notice.Text() == m.retrying.says) {
			m.setStatus("", false)
		}
		return nil
	case dialog.Unread:
		return m.tell(msg)
	case dialog.ChatsRead:
		if msg.Err != nil {
			m.setErr("", msg.Err) // the list says it too, while it is open
		}
		return m.tell(msg)
	}
	if m.pane.live != nil && m.dialogs.Empty() {
		return m.updateForm(msg)
	}
	if e, ok := m.dialogs.Top(); ok {
		if _, form := e.D.(dialog.Prompt); form {
			return m.do(m.dialogs.UpdateTop(msg)) // its form's own messages (huh moves with them)
		}
	}
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return cmd
}

// handler is a message of the root's own: it says what the screen does
// with it.
type handler interface{ apply(m *model) tea.Cmd }

// keyNames are the key names made only of letters: a burst of typed text
// that spells one would match that key's bindings, here and inside the
// form and composer.
var keyNames = map[string]bool{
	"enter": true, "tab": true, "up": true, "down": true, "left": true, "right": true, "home": true,
	"end": true, "pgup": true, "pgdown": true, "delete": true, "insert": true, "space": true,
	"backspace": true, "esc": true, "escape": true,
}

func spellsAKey(msg tea.KeyMsg) bool {
	return msg.Type == tea.KeyRunes && !msg.Paste && len(msg.Runes) > 1 && keyNames[strings.ToLower(string(msg.Runes))]
}

func valuesKey(v forms.Values) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// tooSmall reports whether the screen shows only that the terminal is
// too small (frame.go), so that nothing behind it may take a key.
func (m *model) tooSmall() bool {
	return m.sized && (m.width < minWidth || m.height < minHeight)
}
