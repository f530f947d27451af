// Package transcript is the chat's transcript: its entries (messages,
// request cards, tool and sub-agent rows) cached by width and version, the
// viewport over them, the reply streaming in, and older pages read as the
// user scrolls up.
package transcript

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/status"
	"followup/ui/style"
)

// Model renders messages, caching each finished entry by width and
// version so a frame re-renders only what changed.
type Model struct {
	vp       viewport.Model
	follow   bool // it stays on its newest line
	stream   stream
	thinking bool // the model is answering
	// The viewport's drawing, kept while what it shows stays the same;
	// vpGen is bumped whenever its content is set.
	vpGen  int
	vpView style.Memo[[5]int, string]

	cache map[int64]entry
	// The read of what it would show failed: it says so.
	unreadWhat string
	unreadErr  error

	// The joined rendering, reused while the transcript's version and the
	// width stay the same: a keystroke in a form must not re-join thousands
	// of entries.
	version       int // bumped by Changed whenever messages or requests change
	joinedWidth   int
	joinedVersion int
	joinedNeed    int
	joined        string
	lines         []string // joined, split into lines once per join

	// undrawn counts the oldest messages the last render left out;
	// drawing, whether DrawRest is drawing them.
	undrawn int
	drawing bool

	// Older pages: the id below which a page is being read (0 = none), and
	// the first message id below which nothing older exists.
	loadingBefore int64
	completeAt    int64
}

// Input is what the transcript is drawn from.
type Input struct {
	ChatID   string
	Messages []chat.Message
	Data     Data
	Width    int
	Height   int    // the screen's: following the newest line, a screenful is drawn
	HelpKey  string // the key the empty chat says shows every key
	Offline  bool   // the offline demo agent answers: the empty chat lists its demos
}

func New() *Model {
	return &Model{vp: viewport.New(80, 10), follow: true, cache: map[int64]entry{}}
}

// Changed marks the messages or requests as changed.
func (t *Model) Changed() { t.version++ }

// SetSize sizes the viewport, keeping it on its newest line unless the
// user scrolled up.
func (t *Model) SetSize(width, height int) {
	t.vp.Width = width
	if height != t.vp.Height {
		t.vp.Height = height
		if t.follow {
			t.vp.GotoBottom()
		}
	}
}

// View is the viewport's drawing, kept while what it shows stays the
// same: a key typed in the form does not draw it again.
func (t *Model) View() string {
	return t.vpView.Get([5]int{t.vpGen, t.vp.YOffset, t.vp.Width, t.vp.Height, t.vp.Style.GetVerticalFrameSize()}, t.vp.View)
}

// Refresh gives the viewport the transcript's lines and the stream's
// after them.
func (t *Model) Refresh(in Input) {
	t.vp.SetContent(t.Content(in))
	t.vpGen++
	if t.follow {
		t.vp.GotoBottom()
	}
}

// Content is the transcript's lines, then the stream's.
func (t *Model) Content(in Input) string {
	// Following the newest line, the screenful above it is all that shows;
	// scrolled up, everything is drawn now so the lines in view stay put.
	need := 0
	if t.follow {
		need = in.Height
	}
	var base, tail []string
	if len(in.Messages) > 0 {
		base = t.renderLines(in.Messages, in.Data, in.Width, need)
	}
	if t.stream.shown() && !t.stream.storedIn(in.Messages) {
		tail = t.stream.draw(in.Width)
		if base == nil {
			tail = tail[1:] // no blank line above the first entry
		}
	}
	if base == nil && tail == nil {
		base = t.placeholder(in.Width, in.HelpKey, in.Offline)
	}
	return strings.Join(slices.Concat(base, tail), "\n")
}

// ScrollUp and ScrollDown move half a screen; scrolled up, the transcript
// stays where it is as lines come.
func (t *Model) ScrollUp() {
	t.vp.HalfPageUp()
	t.follow = false
}

func (t *Model) ScrollDown() {
	t.vp.HalfPageDown()
	t.follow = t.vp.AtBottom()
}

// Follow keeps the transcript on its newest line from the next refresh.
func (t *Model) Follow() { t.follow = true }

// SetThinking says whether the model is answering; Thinking reports it.
func (t *Model) SetThinking(on bool) { t.thinking = on }

func (t *Model) Thinking() bool { return t.thinking }

// SetUnread says, in place of the chat, that reading it failed; what is
// the start of the sentence ("Could not read the chat: ").
func (t *Model) SetUnread(what string, err error) {
	t.unreadWhat, t.unreadErr = what, err
	t.Changed()
}

// unreadText is what the transcript shows in place of the chat a read
// failed for.
func (t *Model) unreadText(helpKey string) string {
	words, code := status.ErrWords(t.unreadWhat, t.unreadErr)
	text := style.Error.Render(forms.SanitizeLine(words))
	if code != "" {
		text += " " + style.Dim.Render(code)
	}
	return text + "\n" + style.Dim.Render("What you type stays in the composer. "+helpKey+" shows every key.")
}

// Hold notes where the lines in view are; the func it returns, after a
// refresh that added lines above them, puts them back in view.
func (t *Model) Hold() func() {
	lines, offset := t.vp.TotalLineCount(), t.vp.YOffset
	return func() { t.vp.SetYOffset(offset + t.vp.TotalLineCount() - lines) }
}

// EntriesMsg brings transcript entries drawn off the UI goroutine.
type EntriesMsg struct {
	ChatID  string
	Entries Entries
}

// DrawRest draws, off the UI goroutine, the older entries the last render
// left out, once the user scrolls up to read them; nil when there are
// none, they are being drawn, or the transcript follows its newest line
// (a chat looked at in passing costs only the screenful it shows).
func (t *Model) DrawRest(in Input) tea.Cmd {
	if t.undrawn == 0 || t.drawing || t.follow {
		return nil
	}
	t.drawing = true
	msgs, d, width, chatID := in.Messages[:t.undrawn], in.Data, t.joinedWidth, in.ChatID
	return func() tea.Msg { return EntriesMsg{chatID, Draw(msgs, d, width, 0)} }
}

// OnEntries shows entries DrawRest drew, keeping the lines in view still.
func (t *Model) OnEntries(msg EntriesMsg, in Input) {
	t.drawing = false
	if msg.ChatID != in.ChatID {
		return
	}
	t.Adopt(msg.Entries)
	back := t.Hold()
	t.Changed()
	t.Refresh(in)
	if !t.follow {
		back()
	}
}

// OlderBefore is, when the transcript is scrolled to its top, the oldest
// message shown, before which a page is to be read; 0 when there is none
// to read, or it is being read. Call it after scrolling up.
func (t *Model) OlderBefore(in Input) int64 {
	msgs := in.Messages
	if !t.vp.AtTop() || len(msgs) == 0 || msgs[0].ID == t.completeAt || t.loadingBefore != 0 || in.ChatID == "" {
		return 0
	}
	t.loadingBefore = msgs[0].ID
	return t.loadingBefore
}

// OlderRead takes the end of the read of the page before id, none when it
// found nothing older; it reports whether it is the read awaited.
func (t *Model) OlderRead(before int64, none bool) bool {
	if before != t.loadingBefore {
		return false
	}
	t.loadingBefore = 0
	if none {
		t.completeAt = before
	}
	return true
}

// OnStream takes a stream event for the chat on screen, when loads up to
// loadSeq have begun; msgs are the chat's messages. A delta is only kept:
// the frame after it (the Cmd) draws it. reload: a call ended, and its
// text stays until a load begun now or later shows what became of it.
func (t *Model) OnStream(e chat.Event, loadSeq int, msgs []chat.Message) (cmd tea.Cmd, reload bool) {
	s := &t.stream
	if e.Reset {
		if s.runID != e.RunID {
			return nil, false // another run's: this one's text stands
		}
		if s.recorded || s.raw.Len() == 0 {
			s.clear()
			return nil, false
		}
		s.closed, s.closedSeq = true, loadSeq
		return nil, true
	}
	if s.recorded && s.runID == e.RunID {
		return nil, false
	}
	if s.closed || s.runID != e.RunID {
		s.clear()
		s.runID, s.startSeq, s.after = e.RunID, loadSeq, newestOfRun(msgs, e.RunID)
	}
	s.raw.WriteString(e.Delta)
	s.dirty = true
	if s.pending {
		return nil, false
	}
	s.pending = true
	return tea.Tick(frameEvery, func(time.Time) tea.Msg { return FrameMsg{} }), false
}

// OnFrame reports whether text streamed since the last frame: the root
// refreshes.
func (t *Model) OnFrame() bool {
	t.stream.pending = false
	dirty := t.stream.dirty
	t.stream.dirty = false
	return dirty
}

// ClearStream forgets the reply streaming.
func (t *Model) ClearStream() { t.stream.clear() }

// StreamShown reports whether a streaming reply is drawn, and its text.
func (t *Model) StreamShown() (string, bool) { return t.stream.text(), t.stream.shown() }

// Settle takes from the snapshot of load seq what became of the call
// streaming: its reply stored in msgs, or run no longer running.
func (t *Model) Settle(seq int, run *chat.RunView, msgs []chat.Message) {
	s := &t.stream
	if s.runID == "" || s.recorded || seq == 0 || seq <= s.startSeq {
		return
	}
	ended := run != nil && run.ID == s.runID && run.State != chat.RunRunning
	var reply *chat.Message
	for i := len(msgs) - 1; i >= 0; i-- {
		if msg := &msgs[i]; msg.RunID == s.runID && msg.Role == "assistant" && msg.ID > s.after {
			reply = msg
			break
		}
	}
	switch {
	case s.closed:
		if seq > s.closedSeq && (ended || reply != nil) {
			s.clear()
		}
	case ended || reply != nil && strings.HasPrefix(reply.Content, s.text()):
		// The call ended before its last deltas got here.
		runID := s.runID
		s.clear()
		s.runID, s.recorded = runID, true
	}
}
