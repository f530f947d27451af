package ui

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/status"
	"followup/ui/transcript"
	"followup/ui/words"
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

func (m *model) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.onMCPMessage(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case transcript.EntriesMsg:
		m.tr.OnEntries(msg, m.trIn())
		return nil
	case transcript.FrameMsg:
		if m.tr.OnFrame() {
			m.refreshTranscript()
		}
		return nil
	case tea.WindowSizeMsg:
		// huh asks for the size whenever a form starts: only a real change
		// reflows.
		changed := msg.Width != m.width || msg.Height != m.height
		m.width, m.height, m.sized = msg.Width, msg.Height, true
		m.refreshTranscript()
		if !changed {
			return nil
		}
		m.sizeDialogs()
		// Also behind a dialog or the review: the form comes back at the
		// size of the screen it comes back to.
		return m.pane.resize(m.formWidth(), m.formHeight())
	case serviceMsg:
		m.setService(msg.svc)
		m.start.opening = true
		cmds := []tea.Cmd{m.update(msg.first), startMCPAfterFirstFrame()}
		// What was typed while the database opened, in order, to the chat
		// now on screen.
		early := m.start.early
		m.start.early = nil
		for _, k := range early {
			cmds = append(cmds, m.update(k))
		}
		return tea.Batch(cmds...)
	case suspendMsg:
		return m.suspend()
	case openFailedMsg:
		m.start.openErr = msg.err
		return tea.Quit
	case tea.KeyMsg:
		if m.tooSmall() && !m.matches(msg, m.keys.Quit) {
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
	case spinner.TickMsg:
		return m.onSpinTick(msg)
	case snapshotMsg:
		return m.onSnapshot(msg)
	case eventMsg:
		return m.onEvent(chat.Event(msg))
	case sentMsg:
		var queued []string
		if msg.newChat {
			queued = m.start.release()
		}
		if msg.err != nil {
			m.setErr("", msg.err)
			// Not sent: kept, before what was typed since.
			m.keepUnsent(append([]string{msg.text}, queued...)...)
			if m.deletedElsewhere(msg.to, msg.err) {
				return m.chatGone()
			}
			return nil
		}
		var moved tea.Cmd
		if msg.newChat {
			// Text typed while the chat was made is the new chat's draft.
			moved = tea.Batch(m.putComposer("", ""), m.putComposer(msg.sent.ChatID, m.composer.Value()))
		}
		m.cur.chatID, m.cur.newChat = msg.sent.ChatID, false
		m.driving = true
		cmds := []tea.Cmd{moved, m.load(m.cur.chatID), driveRun(m.svc, msg.sent.RunID)}
		if len(queued) > 0 {
			sends := make([]tea.Cmd, len(queued))
			for i, text := range queued {
				sends[i] = sendMessage(m.svc, m.cur.chatID, text)
			}
			cmds = append(cmds, tea.Sequence(sends...))
		}
		return tea.Batch(cmds...)
	case driveDoneMsg:
		// What streamed stays until the stored reply replaces it (stream.go).
		m.driving = false
		if m.retrying.runs[msg.runID] {
			m.resumed(msg)
		}
		if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeRunBusy {
			m.setErr("", msg.err)
		}
		return m.load(m.cur.chatID)
	case retryMsg:
		return m.onRetry(msg)
	case closedMsg:
		if msg.err == nil && msg.final.ChatID == m.cur.chatID {
			return m.showClosed(msg.q, msg.final)
		}
		return nil
	case answeredMsg:
		return m.onAnswered(msg)
	case cancelledMsg:
		if msg.err != nil {
			m.pane.notClosing(msg.closing) // a close elsewhere later is news
			m.setErr("", msg.err)
			return m.load(m.cur.chatID)
		}
		m.sayDone(m.cancelWords())
		m.dropForm()
		m.driving = true
		return tea.Batch(m.load(m.cur.chatID), driveRun(m.svc, msg.receipt.RunID))
	case stoppedMsg:
		if msg.err != nil {
			m.pane.notClosing(msg.closing)
			m.setErr("", msg.err)
		} else {
			m.dropForm() // the transcript says the task was stopped
		}
		return m.load(m.cur.chatID)
	case decidedMsg:
		if msg.err != nil {
			m.setErr("", msg.err)
		} else if msg.res.State == "accepted" {
			m.setStatus("Proposal accepted — review the form and submit when ready.", false)
			m.moves.onInstall = m.now() // the user was just answering about this form
			// The store now holds the accepted draft; what this screen kept
			// from before is older.
			m.pane.forget(m.pane.liveKey)
		} else {
			m.setStatus("Kept your values.", false)
		}
		m.dropForm()
		return m.load(m.cur.chatID)
	case olderMsg:
		return m.onOlder(msg)
	case elsewhereMsg:
		if msg.err == nil && !sameRuns(m.cur.orphans, msg.orphans) {
			m.cur.orphans = msg.orphans
			m.tr.Changed() // a tool row of an interrupted run says so
			m.refreshTranscript()
		}
		if msg.chatID == m.cur.chatID {
			if m.newElsewhere(msg) {
				// A question that arrives elsewhere ends the notice's
				// moment: the inbox takes the line.
				m.setStatus("", false)
			}
			m.cur.elsewhere, m.cur.others = msg.n, msg.others
		}
		return nil
	case status.EndMsg:
		if msg.Gen == m.notice.Gen() && !(len(m.retrying.runs) > 0 && m.notice.Text() == m.retrying.says) {
			m.setStatus("", false)
		}
		return nil
	case draftLoadedMsg:
		cmd, installed := m.pane.onDraftLoaded(msg)
		if installed {
			cmd = tea.Batch(cmd, m.formInstalled())
		}
		return cmd
	case draftSavedMsg:
		// A question closed, changed or deleted meanwhile: the snapshot
		// that follows says what became of it.
		if code := chat.CodeOf(msg.err); msg.err != nil && code != chat.CodeTargetClosed && code != chat.CodeStaleTarget && code != chat.CodeNotFound {
			m.setErr("Draft not saved: ", msg.err)
		}
		if m.pane.sync.landedNow(msg.key, m.cur.loadSeq) {
			return m.load(m.cur.chatID) // a read too early may have missed another hand's draft
		}
		return nil
	case autosaveMsg:
		return m.pane.autosave()
	case composerSaveMsg:
		if msg.seq == m.composer.Seq() {
			return m.saveComposer()
		}
		return nil
	case composerSavedMsg:
		m.onComposerSaved(msg)
		return nil
	case composerLoadedMsg:
		// A draft that could not be read is not an empty one: taken as
		// one, the next autosave would write over it.
		if msg.err == nil && msg.chatID == m.cur.chatID && m.cur.newChat == (msg.chatID == "") {
			m.adoptComposer(msg.chatID, msg.text)
		}
		return nil
	case focusTickMsg:
		return m.onFocusTick(msg)
	case dialog.Unread:
		return m.tell(msg)
	case dialog.ChatsRead:
		if msg.Err != nil {
			m.setErr("", msg.Err) // the list says it too, while it is open
		}
		return m.tell(msg)
	case errMsg:
		m.setErr("", msg.err)
		return nil
	}
	var cmds []tea.Cmd
	var cmd tea.Cmd
	if m.pane.live != nil && m.dialogs.Empty() {
		cmds = append(cmds, m.updateForm(msg))
	} else {
		m.composer, cmd = m.composer.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

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

// errText says what went wrong in words, without the error's code: the
// status line shows the code apart, dimmed (setErr).
func errText(err error) string { return chat.AsError(err).Message }

func valuesKey(v forms.Values) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (m *model) onAnswered(a answeredMsg) tea.Cmd {
	if a.err != nil {
		return m.notAnswered(a)
	}
	m.closeAbout("")
	m.pane.problems, m.pane.unplaced = nil, nil
	if a.receipt.ApplyState == chat.Partial {
		r, _ := m.activeRequest()
		m.setStatus("Saved as a partial answer; still missing: "+words.Labels(r, a.receipt.Missing), false)
		return tea.Batch(m.load(m.cur.chatID), m.pane.edit())
	}
	m.sayDone("Answer sent.")
	m.dropForm()
	m.driving = true
	return tea.Batch(m.load(m.cur.chatID), driveRun(m.svc, a.receipt.RunID))
}

func (m *model) matches(msg tea.KeyMsg, b key.Binding) bool { return key.Matches(msg, b) }

// tooSmall reports whether the screen shows only that the terminal is
// too small (frame.go), so that nothing behind it may take a key.
func (m *model) tooSmall() bool {
	return m.sized && (m.width < minWidth || m.height < minHeight)
}
