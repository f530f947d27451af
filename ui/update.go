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

// update routes a message: the root's own carry what the screen does
// with them (handler); the children's go to them; the rest go to the form
// or the composer.
func (m *model) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.onMCPMessage(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case handler:
		return msg.apply(m)
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
	var cmd tea.Cmd
	m.composer, cmd = m.composer.Update(msg)
	return cmd
}

// handler is a message of the root's own: it says what the screen does
// with it.
type handler interface{ apply(m *model) tea.Cmd }

func (msg serviceMsg) apply(m *model) tea.Cmd {
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
}

func (msg suspendMsg) apply(m *model) tea.Cmd {
	return m.suspend()
}

func (msg openFailedMsg) apply(m *model) tea.Cmd {
	m.start.openErr = msg.err
	return tea.Quit
}

func (msg eventMsg) apply(m *model) tea.Cmd {
	return m.onEvent(chat.Event(msg))
}

func (msg sentMsg) apply(m *model) tea.Cmd {
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
}

func (msg driveDoneMsg) apply(m *model) tea.Cmd {
	// What streamed stays until the stored reply replaces it (stream.go).
	m.driving = false
	if m.retrying.runs[msg.runID] {
		m.resumed(msg)
	}
	if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeRunBusy {
		m.setErr("", msg.err)
	}
	return m.load(m.cur.chatID)
}

func (msg closedMsg) apply(m *model) tea.Cmd {
	if msg.err == nil && msg.final.ChatID == m.cur.chatID {
		return m.showClosed(msg.q, msg.final)
	}
	return nil
}

func (msg cancelledMsg) apply(m *model) tea.Cmd {
	if msg.err != nil {
		m.pane.notClosing(msg.closing) // a close elsewhere later is news
		m.setErr("", msg.err)
		return m.load(m.cur.chatID)
	}
	m.sayDone(m.cancelWords())
	m.dropForm()
	m.driving = true
	return tea.Batch(m.load(m.cur.chatID), driveRun(m.svc, msg.receipt.RunID))
}

func (msg stoppedMsg) apply(m *model) tea.Cmd {
	if msg.err != nil {
		m.pane.notClosing(msg.closing)
		m.setErr("", msg.err)
	} else {
		m.dropForm() // the transcript says the task was stopped
	}
	return m.load(m.cur.chatID)
}

func (msg decidedMsg) apply(m *model) tea.Cmd {
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
}

func (msg elsewhereMsg) apply(m *model) tea.Cmd {
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
}

func (msg draftLoadedMsg) apply(m *model) tea.Cmd {
	cmd, installed := m.pane.onDraftLoaded(msg)
	if installed {
		cmd = tea.Batch(cmd, m.formInstalled())
	}
	return cmd
}

func (msg draftSavedMsg) apply(m *model) tea.Cmd {
	// A question closed, changed or deleted meanwhile: the snapshot
	// that follows says what became of it.
	if code := chat.CodeOf(msg.err); msg.err != nil && code != chat.CodeTargetClosed && code != chat.CodeStaleTarget && code != chat.CodeNotFound {
		m.setErr("Draft not saved: ", msg.err)
	}
	if m.pane.sync.landedNow(msg.key, m.cur.loadSeq) {
		return m.load(m.cur.chatID) // a read too early may have missed another hand's draft
	}
	return nil
}

func (msg autosaveMsg) apply(m *model) tea.Cmd {
	return m.pane.autosave()
}

func (msg composerSaveMsg) apply(m *model) tea.Cmd {
	if msg.seq == m.composer.Seq() {
		return m.saveComposer()
	}
	return nil
}

func (msg composerSavedMsg) apply(m *model) tea.Cmd {
	m.onComposerSaved(msg)
	return nil
}

func (msg composerLoadedMsg) apply(m *model) tea.Cmd {
	// A draft that could not be read is not an empty one: taken as
	// one, the next autosave would write over it.
	if msg.err == nil && msg.chatID == m.cur.chatID && m.cur.newChat == (msg.chatID == "") {
		m.adoptComposer(msg.chatID, msg.text)
	}
	return nil
}

func (msg errMsg) apply(m *model) tea.Cmd {
	m.setErr("", msg.err)
	return nil
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

func (a answeredMsg) apply(m *model) tea.Cmd {
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
