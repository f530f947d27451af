package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/composer"
	"followup/ui/status"
)

// model is the root: it owns routing, focus and layout. Its children are
// concrete structs (the form pane, the start-up state) and a stack of
// dialogs (the review, confirmations, a proposal, help, the chat list).
type model struct {
	svc *chat.Service // nil until Run has opened it
	// dbPath and provider are known before the database opens.
	dbPath, provider string
	// readOnly says why the database cannot be written ("" when it can):
	// the screen says so from the first frame and keeps no drafts.
	readOnly string
	start    startup
	keys     keyMap

	width, height int
	sized         bool // width and height are the terminal's

	// The chat on screen.
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

	pane formPane
	mcp  mcpState // tool calls, approvals and servers (mcpstate.go)

	dialogs   dialogStack
	dialogBox sizeMsg // the box the pane's dialogs were last told
	// now is the screen's clock: the dialog grace and the pause before
	// focus moves are measured on it (tests move it).
	now func() time.Time

	focus          focusArea
	focusOnInstall time.Time // when a decision, or its chat opening, asked for the next form installed to be focused (focus.go)
	lastKey        time.Time // when the user last typed (focus.go: or when a newcomer first waited)
	waiting        bool      // a newcomer waits for the focus (focus.go)
	focusSeq       int       // the focus check on its way
	movedAt        time.Time // when the focus last moved by itself
	movedFrom      focusArea // and from where
	muted          bool      // the rest of a decision's burst of keys is dropped (burst.go)

	composer composer.Model // with each chat's unsent text (composer.go saves it)
	vp       viewport.Model
	tr       *transcript
	follow   bool // the transcript stays on its newest line

	stream   stream
	thinking bool
	driving  bool
	spin     spinner.Model
	// spinStopped: the spinner's ticks stopped while it was not drawn (spin.go).
	spinStopped bool

	lay   layoutSpec // the layout the last Update arranged
	frame string     // the frame it drew, which View returns
	// What the last frames drew of the transcript and the composer, kept
	// while what they draw stays the same (frame.go).
	vpGen    int // bumped whenever the transcript's content is set
	vpMemo   memo[[5]int]
	compMemo memo[composerKey]

	unread       *readFailure    // a read the screen needs that failed (unread.go)
	notice       status.Notice   // the notice line (ui/status)
	resuming     map[string]bool // runs ctrl+r is resuming or retrying
	resumingSays string          // and the status that says so (retry.go)
	retried      retryDone       // what the last ctrl+r moved on

	saver *saver // writes the drafts, in order, off the UI goroutine
}

func newModel(svc *chat.Service) *model {
	m := newScreen()
	m.setService(svc)
	return m
}

// setService gives the screen its open database.
func (m *model) setService(svc *chat.Service) {
	m.svc, m.dbPath, m.provider = svc, svc.Path(), svc.ProviderName()
	m.readOnly = svc.ReadOnly()
	m.saver.setOff(m.readOnly != "") // every write would be refused
	m.pane.svc = svc
}

// newScreen is the screen before its database is open.
func newScreen() *model {
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m := &model{
		keys: defaultKeys(), composer: composer.New(defaultKeys().Newline, 2), spin: sp,
		vp: viewport.New(80, 10), tr: newTranscript(), requests: map[string]chat.RequestView{},
		width: 80, height: 24, follow: true, now: time.Now, elsewhere: -1,
	}
	m.saver = newSaver()
	m.pane.saver = m.saver
	m.pane.resize(m.formWidth(), m.formHeight())
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

func (m *model) activeRequest() (chat.RequestView, bool) { return m.pane.activeRequest() }
