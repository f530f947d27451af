package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"followup/bench/dataset"
	"followup/chat"
)

// The benchmarks run on a database of the sizes docs/performance.md budgets name:
// 1,000 chats, 100,000 messages, 10,000 requests. The newest chat, the one
// the screen opens, has 2,000 messages and two pending requests: a 32-field
// form and, active on opening, a 7-field travel form.

func largeService(b *testing.B) (*chat.Service, dataset.Summary) {
	b.Helper()
	lipgloss.SetColorProfile(termenv.TrueColor)
	return dataset.Open(b, dataset.Default())
}

// openScreen builds the root model the way the program does: size, the
// first snapshot, the active request's form with its draft. With a request
// id, that request is made the active one first.
func openScreen(b *testing.B, svc *chat.Service, active string) *model {
	m := newModel(svc)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	snap := loadChat(svc, "", prep{})().(snapshotMsg)
	if snap.err != nil {
		b.Fatal(snap.err)
	}
	m.Update(snap)
	if active != "" {
		m.pane.active = active
	}
	r, ok := m.pane.activeRequest()
	if !ok {
		b.Fatal("no pending request in the newest chat")
	}
	m.Update(loadDraft(svc, r.ID, r.Revision)())
	if m.pane.live == nil {
		b.Fatal("the form was not installed")
	}
	return m
}

// withFullTranscript loads older pages until the whole chat is shown.
func withFullTranscript(b *testing.B, m *model) {
	for {
		m.tr.Viewport().GotoTop()
		cmd := m.maybeLoadOlder()
		if cmd == nil {
			break
		}
		cmd().(olderMsg).apply(m)
	}
	m.tr.Viewport().GotoBottom()
	if len(m.cur.messages) < 1500 {
		b.Fatalf("only %d messages shown", len(m.cur.messages))
	}
}

// BenchmarkFirstFrame is opening the screen on the large database, in
// process: the snapshot read, the active (7-field) form built, the first View.
func BenchmarkFirstFrame(b *testing.B) {
	svc, _ := largeService(b)
	b.ReportAllocs()
	for b.Loop() {
		m := openScreen(b, svc, "")
		_ = m.View()
	}
}

// BenchmarkFirstFrame32 is BenchmarkFirstFrame with the 32-field form active.
func BenchmarkFirstFrame32(b *testing.B) {
	svc, sum := largeService(b)
	b.ReportAllocs()
	for b.Loop() {
		m := openScreen(b, svc, sum.BigRequestID)
		_ = m.View()
	}
}

// BenchmarkKeystroke is one key typed into the 32-field form over the
// 2,000-message transcript, as the program handles it: the screen runs in
// a Bubble Tea program (30 frames a second, its output discarded), a key is
// sent and the frame it causes written before the next. Update, the
// commands it returns, View and the renderer's write all count, on every
// goroutine; it reports the process's CPU time per key too.
func BenchmarkKeystroke(b *testing.B) {
	svc, sum := largeService(b)
	m := openScreen(b, svc, sum.BigRequestID)
	withFullTranscript(b, m)
	m.setFocus(focusForm)
	m.start.preloaded = true // Init reads no chat: it is on screen
	frames := frameWriter(make(chan struct{}, 1))
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(frames), tea.WithoutSignalHandler())
	done := make(chan struct{})
	go func() { p.Run(); close(done) }()
	defer func() { p.Quit(); <-done }()
	<-frames // the first frame
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'a'}}, {Type: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	cpu := cpuNow()
	for b.Loop() {
		p.Send(keys[i%2])
		<-frames
		i++
	}
	b.ReportMetric(float64(cpuNow()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/key")
	if !strings.Contains(m.pane.live.View(), "Question 1") {
		b.Fatal("the keys did not go to the 32-field form")
	}
}

// frameWriter is a terminal that tells each frame written.
type frameWriter chan struct{}

func (w frameWriter) Write(p []byte) (int, error) {
	select {
	case w <- struct{}{}:
	default:
	}
	return len(p), nil
}

// BenchmarkScroll is the scroll-down key over a 2,000-message transcript
// (Update and View, as the program runs them).
func BenchmarkScroll(b *testing.B) {
	svc, sum := largeService(b)
	m := openScreen(b, svc, sum.BigRequestID)
	withFullTranscript(b, m)
	m.tr.Viewport().GotoTop()
	m.tr.SetFollow(false)
	down := tea.KeyMsg{Type: tea.KeyPgDown}
	b.ReportAllocs()
	for b.Loop() {
		if m.tr.Viewport().AtBottom() {
			m.tr.Viewport().GotoTop()
		}
		m.Update(down)
		_ = m.View()
	}
}

// BenchmarkLoadChat is the first snapshot alone (it runs off the UI
// goroutine, in a tea.Cmd).
func BenchmarkLoadChat(b *testing.B) {
	svc, _ := largeService(b)
	b.ReportAllocs()
	for b.Loop() {
		if s := loadChat(svc, "", prep{})().(snapshotMsg); s.err != nil {
			b.Fatal(s.err)
		}
	}
}

// BenchmarkStartup is everything Run does before the first frame but the
// terminal's part, in process: the screen set up at the terminal's size,
// the database opened, the newest chat read with its form built and its
// newest entries drawn, the snapshot installed and the frame composed (and
// the database closed again).
func BenchmarkStartup(b *testing.B) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	path, _, err := dataset.Copy(b.TempDir(), dataset.Default())
	if err != nil {
		b.Fatal(err)
	}
	// The copy may predate a migration: the first open brings it up to
	// date, as it would a user's database once.
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: path})
	if err != nil {
		b.Fatal(err)
	}
	svc.Close()
	b.ReportAllocs()
	for b.Loop() {
		m := newScreen()
		m.start.dbPath, m.width, m.height, m.sized = path, 120, 40, true
		m.pane.resize(formSize(m.width, m.height))
		m.refreshTranscript()
		m.arrange()
		m.start.preloaded = true
		first := m.nextLoad()
		svc, err := chat.Open(context.Background(), chat.Options{DBPath: path})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(serviceMsg{svc, loadChat(svc, "", first)()})
		if m.pane.live == nil {
			b.Fatal("the form was not installed")
		}
		_ = m.View()
		svc.Close()
	}
}
