package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/composer"
	"followup/ui/dialog"
	"followup/ui/status"
	"followup/ui/style"
	"followup/ui/transcript"
)

// model is the root: it owns routing, focus and layout. Its children are
// concrete structs (the form pane, the start-up state) and a stack of
// dialogs (the review, confirmations, a proposal, help, the chat list).
type model struct {
	svc *chat.Service // nil until Run has opened it
	// readOnly says why the database cannot be written ("" when it can):
	// the screen says so from the first frame and keeps no drafts.
	readOnly string
	start    startup
	keys     keyMap

	width, height int
	sized         bool // width and height are the terminal's

	cur chatOnScreen

	pane formPane
	mcp  mcpState // tool calls, approvals and servers (mcpstate.go)

	dialogs   dialog.Stack
	dialogBox dialog.Size // the box the pane's dialogs were last told
	// now is the screen's clock: the dialog grace and the pause before
	// focus moves are measured on it (tests move it).
	now func() time.Time

	focus focusArea
	moves focusMoves // the focus moving by itself (focus.go)

	composer composer.Model // with each chat's unsent text (composer.go saves it)
	tr       *transcript.Model
	driving  bool
	spin     spinState

	lay      layoutSpec                      // the layout the last Update arranged
	frame    string                          // the frame it drew, which View returns
	compMemo style.Memo[composerKey, string] // the unfocused composer's drawing, kept while it stays the same (frame.go)

	unread   *readFailure  // a read the screen needs that failed (unread.go)
	notice   status.Notice // the notice line (ui/status)
	retrying retrying      // what ctrl+r moves on (retry.go)
	saver    *saver        // writes the drafts, in order, off the UI goroutine
}

// chatOnScreen is the chat on screen, as its last snapshot read it.
type chatOnScreen struct {
	chatID   string
	newChat  bool
	chat     *chat.ChatView
	messages []chat.Message
	requests map[string]chat.RequestView
	run      *chat.RunView
	orphans  []chat.RunView
	loaded   bool
	// Loads run side by side and may finish out of order: a snapshot read
	// before the one on screen is dropped.
	loadSeq, shownSeq int
	// elsewhere counts the questions waiting in other chats; -1 until they
	// are counted for the chat on screen.
	elsewhere int
	others    []chat.RequestView // and which they are, oldest first (inbox.go)
}

// sendTo is the chat a message typed now goes to: "" makes a new one.
func (c *chatOnScreen) sendTo() string {
	if c.newChat {
		return ""
	}
	return c.chatID
}

// empty shows cv (nil: no chat) with nothing of it read yet.
func (c *chatOnScreen) empty(cv *chat.ChatView) {
	c.chat, c.messages, c.run, c.requests = cv, nil, nil, map[string]chat.RequestView{}
}

// setService gives the screen its open database.
func (m *model) setService(svc *chat.Service) {
	m.svc, m.start.dbPath, m.start.provider = svc, svc.Path(), svc.ProviderName()
	m.readOnly = svc.ReadOnly()
	m.saver.setOff(m.readOnly != "") // every write would be refused
	m.pane.svc = svc
}

// newScreen is the screen before its database is open.
func newScreen() *model {
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m := &model{
		keys: defaultKeys(), composer: composer.New(defaultKeys().Newline, 2), spin: spinState{Model: sp},
		tr: transcript.New(), cur: chatOnScreen{requests: map[string]chat.RequestView{}, elsewhere: -1},
		width: 80, height: 24, now: time.Now,
	}
	m.saver = newSaver()
	m.pane = newFormPane(m.saver)
	m.mcp.progress = map[string]string{}
	m.pane.resize(formSize(m.width, m.height))
	m.arrange()
	return m
}

// Init implements tea.Model.
func (m *model) Init() tea.Cmd {
	if m.start.preloaded {
		return tea.Batch(textarea.Blink, m.spin.Tick) // Run reads the chat
	}
	return tea.Batch(textarea.Blink, m.load(""), m.spin.Tick)
}
