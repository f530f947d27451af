package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
)

type focusArea int

const (
	focusComposer focusArea = iota
	focusForm
)

type mode int

const (
	modeNormal mode = iota
	modeReview
	modeConfirmCancel
	modeConfirmStop
	modeProposal
	modeHelp
	modeChats
)

// dialogGrace is how long a dialog ignores keys after it opens, so typing
// meant for the composer cannot answer a question that just appeared.
const dialogGrace = 400 * time.Millisecond

// model is the root: it owns routing, focus and layout.
type model struct {
	svc *chat.Service // nil until Run has opened it
	// dbPath and provider are known before the database opens.
	dbPath, provider string
	// early holds keys typed before the database opened.
	early []tea.KeyMsg
	// creating: a message is making a new chat; queued are the messages
	// typed meanwhile, sent to that chat once it has an id.
	creating bool
	queued   []string
	// submitting: the review's answer is on its way.
	submitting bool
	openErr    error // the database could not be opened: Run reports it
	keys       keyMap
	help       help.Model

	width, height int
	sized         bool // width and height are the terminal's

	chatID   string
	newChat  bool
	chat     *chat.ChatView
	messages []chat.Message
	requests map[string]chat.RequestView
	pending  []chat.RequestView
	run      *chat.RunView
	orphans  []chat.RunView
	loaded   bool
	// preloaded: the first chat load was started before the program, by Run.
	preloaded bool
	// Loads run side by side and may finish out of order: a snapshot read
	// before the one on screen is dropped.
	loadSeq, shownSeq int
	// elsewhere counts the questions waiting in other chats.
	elsewhere int

	active       string // request shown in the form pane
	live         *forms.Live
	liveKey      string     // request id and revision the live form was built for
	built        *builtForm // a form the last load built, until installed or dropped
	loadingKey   string
	drafts       map[string]draftLoadedMsg // drafts that came with the last snapshot
	localDrafts  map[string]forms.Values   // drafts this screen left or saved, newer than any snapshot's
	savedDraft   string                    // JSON of the last saved draft, to skip saving no change
	pendingDraft string                    // JSON of the draft an autosave is scheduled for
	draftSeq     int

	focus          focusArea
	focusOnInstall bool // focus the next form installed
	mode           mode
	target         string // the question (liveKey) an open dialog or review is about
	modeSince      time.Time
	lastKey        time.Time
	wantFocus      bool

	composer  textarea.Model
	unsent    map[string]string // composer text left in each chat
	vp        viewport.Model
	tr        *transcript
	vpContent string
	vpFrame   vpFrame // the viewport's last View
	follow    bool    // the transcript stays on its newest line

	streaming string
	thinking  bool
	driving   bool
	spin      spinner.Model

	frame   string // the last View, until the next Update
	helpTop int    // the first help line shown when help does not fit

	status    string
	statusErr bool
	problems  []forms.Problem

	chats      []chat.ChatView
	chatSel    int
	confirmDel string
}

func newModel(svc *chat.Service) *model {
	m := newScreen()
	m.setService(svc)
	return m
}

// setService gives the screen its open database.
func (m *model) setService(svc *chat.Service) {
	m.svc, m.dbPath, m.provider = svc, svc.Path(), svc.ProviderName()
}

// newScreen is the screen before its database is open.
func newScreen() *model {
	ta := textarea.New()
	ta.Placeholder = "Message the agent…"
	ta.ShowLineNumbers = false
	ta.SetPromptFunc(2, func(line int) string {
		if line == 0 {
			return "› "
		}
		return "  "
	})
	ta.SetHeight(2)
	ta.CharLimit = chat.MaxMessage
	ta.KeyMap.InsertNewline = defaultKeys().Newline
	ta.Focus()
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	return &model{
		keys: defaultKeys(), help: help.New(), composer: ta, spin: sp,
		vp: viewport.New(80, 10), tr: newTranscript(), requests: map[string]chat.RequestView{},
		width: 80, height: 24, follow: true,
	}
}

// Init implements tea.Model.
func (m *model) Init() tea.Cmd {
	if m.preloaded {
		return tea.Batch(textarea.Blink, m.spin.Tick) // Run reads the chat
	}
	return tea.Batch(textarea.Blink, m.load(""), m.spin.Tick)
}

func (m *model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
}

func (m *model) activeRequest() (chat.RequestView, bool) {
	for _, r := range m.pending {
		if r.ID == m.active {
			return r, true
		}
	}
	return chat.RequestView{}, false
}

// openMode opens a mode; a dialog about a question remembers which one, so
// a question that changes underneath cannot receive its answer.
func (m *model) openMode(md mode) {
	m.mode, m.modeSince = md, time.Now()
	m.target = ""
	if md == modeReview || md == modeConfirmCancel || md == modeProposal {
		m.target = m.liveKeyOfActive()
	}
}

// closeMode returns to the normal screen.
func (m *model) closeMode() { m.mode, m.target = modeNormal, "" }

// liveKeyOfActive names the active question's revision ("" when none).
func (m *model) liveKeyOfActive() string {
	if r, ok := m.activeRequest(); ok {
		return liveKey(r)
	}
	return ""
}

// inGrace reports whether a just-opened dialog still ignores keys.
func (m *model) inGrace() bool { return time.Since(m.modeSince) < dialogGrace }
