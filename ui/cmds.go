package ui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/transcript"
	"followup/ui/words"
)

// snapshotMsg carries everything the screen shows of one chat.
type snapshotMsg struct {
	chatID    string
	chat      *chat.ChatView
	messages  []chat.Message
	requests  map[string]chat.RequestView
	pending   []chat.RequestView
	run       *chat.RunView
	orphans   []chat.RunView
	drafts    map[string]draftLoadedMsg    // saved drafts of the pending requests, by liveKey
	composer  string                       // the chat's saved composer text
	fresh     bool                         // a new chat, opened for the text typed in it, while other chats exist
	entries   transcript.Entries           // transcript entries drawn by the load
	built     *builtForm                   // the active question's form, built by the load
	approvals []chat.ApprovalView          // the chat's pending approvals (mcpstate.go)
	steps     map[string]chat.ToolStepView // the tool calls the page's rows name
	seq       int                          // the load's prep.seq
	err       error
	errWhat   string       // what was being read when err came
	aside     *readFailure // a read beside the chat that failed (unread.go)
}

// eventMsg is one event from the host.
type eventMsg chat.Event

// driveDoneMsg reports that driving a run stopped (it waits or ended).
type driveDoneMsg struct {
	runID string
	run   chat.RunView
	err   error
}

func (msg driveDoneMsg) apply(m *model) tea.Cmd {
	// What streamed stays until the stored reply replaces it (ui/transcript).
	m.driving = false
	if m.retrying.runs[msg.runID] {
		m.resumed(msg)
	}
	if msg.err != nil && chat.CodeOf(msg.err) != chat.CodeRunBusy {
		m.setErr("", msg.err)
	}
	return m.load(m.cur.chatID)
}

// sentMsg reports a recorded chat message.
type sentMsg struct {
	sent    chat.Sent
	err     error
	newChat bool   // the message was to make a new chat
	to      string // the chat it was sent to ("" for a new one)
	text    string // what was sent: kept when it was refused
	attach  []mcp.Resource
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
		for _, r := range msg.attach {
			m.composer.Attach(r)
		}
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
	cmds := []tea.Cmd{moved, m.driveOn(msg.sent.RunID)}
	if len(queued) > 0 {
		sends := make([]tea.Cmd, len(queued))
		for i, text := range queued {
			sends[i] = sendMessage(m.svc, m.cur.chatID, text)
		}
		cmds = append(cmds, tea.Sequence(sends...))
	}
	return tea.Batch(cmds...)
}

// answeredMsg reports the result of confirming a review.
type answeredMsg struct {
	receipt chat.Receipt
	err     error
	sent    closedQuestion // the question and the values sent, kept readable if it closed meanwhile
}

func (a answeredMsg) apply(m *model) tea.Cmd {
	if a.err != nil {
		return m.notAnswered(a)
	}
	m.closeAbout("")
	m.pane.problems, m.pane.unplaced = nil, nil
	if a.receipt.ApplyState == chat.Partial {
		r, _ := m.pane.activeRequest()
		m.setStatus("Saved as a partial answer; still missing: "+words.Labels(r, a.receipt.Missing), false)
		return tea.Batch(m.load(m.cur.chatID), m.pane.edit())
	}
	m.sayDone("Answer sent.")
	m.focusNextQuestion(a.sent.was.ID)
	m.dropForm()
	return m.driveOn(a.receipt.RunID)
}

// doneMsg reports an operation on the chat on screen that may leave its
// run to go on: a cancel, a stop, an approval or a link decided.
type doneMsg struct {
	runID   string // the run it leaves to go on ("": the chat is read again)
	err     error
	status  string   // what the notice line says once it is done
	done    string   // or says of the questions open (status.Notice.SayDone)
	drop    bool     // the form goes: its question closed
	closing []string // the questions this screen was closing: not closed by it after an error
	decided string   // the approval or link question decided: its card hears how it went
}

func (msg doneMsg) apply(m *model) tea.Cmd {
	var told tea.Cmd
	if msg.decided != "" {
		told = m.tell(dialog.Decided{ID: msg.decided, Err: msg.err})
	}
	if msg.err != nil {
		m.pane.notClosing(msg.closing) // a close elsewhere later is news
		m.setErr("", msg.err)
		return tea.Batch(told, m.load(m.cur.chatID))
	}
	if msg.status != "" {
		m.setStatus(msg.status, false)
	}
	if msg.done != "" {
		m.sayDone(msg.done)
	}
	if msg.drop {
		m.focusNextQuestion(append(msg.closing, msg.decided)...)
		m.dropForm() // the transcript says what became of the question
	}
	if msg.runID == "" {
		return tea.Batch(told, m.load(m.cur.chatID))
	}
	return tea.Batch(told, m.driveOn(msg.runID))
}

// decidedMsg reports a decided proposal.
type decidedMsg struct {
	res chat.DecideResult
	err error
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

// draftSavedMsg reports the save of a revision's draft (key: liveKey).
type draftSavedMsg struct {
	key string
	err error
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

// draftLoadedMsg brings the saved draft of the request being installed.
type draftLoadedMsg struct {
	requestID string
	revision  int
	draft     forms.Values
	found     bool
	saved     time.Time // when it was last saved
	focus     string    // the field the user was in when it was saved
	local     bool      // the draft this screen kept, not read from the store
}

func (msg draftLoadedMsg) apply(m *model) tea.Cmd {
	return m.formInstalled(m.pane.onDraftLoaded(msg))
}

// autosaveMsg fires after the user paused editing.
type autosaveMsg struct{}

func (msg autosaveMsg) apply(m *model) tea.Cmd {
	return m.pane.autosave()
}

// liveKey names a request revision's form.
func liveKey(r chat.RequestView) string { return fmt.Sprintf("%s@%d", r.ID, r.Revision) }

// olderMsg brings a page of the transcript older than what is shown.
type olderMsg struct {
	chatID   string
	before   int64
	messages []chat.Message
	requests []chat.RequestView
	steps    map[string]chat.ToolStepView // the tool calls its rows name
	err      error
}

// loadOlder reads the transcript page before the oldest shown message.
func loadOlder(svc *chat.Service, chatID string, before int64) tea.Cmd {
	return func() tea.Msg {
		ms, rs, err := svc.TranscriptPage(context.Background(), chatID, before, transcriptPage)
		return olderMsg{chatID: chatID, before: before, messages: ms, requests: rs, steps: readSteps(context.Background(), svc, ms), err: err}
	}
}

func sendMessage(svc *chat.Service, chatID, text string, attach ...mcp.Resource) tea.Cmd {
	return func() tea.Msg {
		s, err := svc.Send(context.Background(), chatID, text, "", attach...)
		return sentMsg{sent: s, err: err, newChat: chatID == "", to: chatID, text: text, attach: attach}
	}
}

// driveOn reads the chat again and drives the run an operation left to
// go on (chat.Service.DriveOn says what comes of it).
func (m *model) driveOn(runID string) tea.Cmd {
	m.driving = true
	return tea.Batch(m.load(m.cur.chatID), driveRun(m.svc, runID))
}

func driveRun(svc *chat.Service, runID string) tea.Cmd {
	return func() tea.Msg {
		v, _, err := svc.DriveOn(context.Background(), runID)
		return driveDoneMsg{runID, v, err}
	}
}

// submitAnswer records the reviewed values, made over the partial answer
// the form showed (over): one given elsewhere meanwhile refuses it.
func submitAnswer(svc *chat.Service, req chat.RequestView, values, over forms.Values, typed forms.Values) tea.Cmd {
	over = mergeValues(over) // none: {}, so a partial answer given meanwhile is noticed too
	return func() tea.Msg {
		rc, err := svc.Answer(context.Background(), chat.AnswerInput{RequestID: req.ID, Digest: req.Digest, Values: values, Over: &over})
		return answeredMsg{rc, err, closedQuestion{was: req, typed: typed}}
	}
}

// cancelRequest cancels a question; done is the line once it is done.
func cancelRequest(svc *chat.Service, id, done string) tea.Cmd {
	return func() tea.Msg {
		rc, err := svc.Cancel(context.Background(), id, "")
		return doneMsg{runID: rc.RunID, err: err, done: done, drop: true, closing: []string{id}}
	}
}

// stopTask stops the run; closing are its questions on screen, which
// this screen is closing with it.
func stopTask(svc *chat.Service, runID string, closing ...string) tea.Cmd {
	return func() tea.Msg {
		_, err := svc.Stop(context.Background(), runID, "")
		return doneMsg{err: err, drop: true, closing: closing}
	}
}

func decide(svc *chat.Service, proposalID string, accept bool, draft forms.Values) tea.Cmd {
	return func() tea.Msg {
		res, err := svc.Decide(context.Background(), chat.Decision{ProposalID: proposalID, Accept: accept, Draft: draft}, "")
		return decidedMsg{res, err}
	}
}

func loadDraft(svc *chat.Service, id string, rev int) tea.Cmd {
	return func() tea.Msg {
		d, ok, _ := svc.LoadDraft(context.Background(), id, rev)
		return draftLoadedMsg{requestID: id, revision: rev, draft: d.Values, found: ok, focus: d.Focus}
	}
}

// listChats reads the page of up to limit chats after the cursor after.
func listChats(svc *chat.Service, after string, limit int) tea.Cmd {
	return func() tea.Msg {
		ctx := context.Background()
		page, err := svc.ChatList(ctx, after, limit)
		msg := dialog.ChatsRead{Page: page, After: after, Err: err}
		if after == "" && err == nil {
			// The list's top row is the new chat when text waits there.
			msg.NewDraft, msg.DraftErr = svc.ComposerDraft(ctx, "")
		}
		return msg
	}
}

const autosaveDelay = 400 * time.Millisecond

func autosaveAfter(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return autosaveMsg{} })
}
