package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
)

// serviceMsg brings the database Run opened and the first chat read from
// it, so keys typed meanwhile reach that chat.
type serviceMsg struct {
	svc   *chat.Service
	first tea.Msg // the first load's snapshotMsg
}

// openFailedMsg ends the program: the database could not be opened.
type openFailedMsg struct{ err error }

// Run opens the chat screen on the database o names until the user quits.
// A database that cannot be opened ends the program with its error.
//
// The program takes over the terminal on this goroutine, which is already
// running, while the database opens and the first chat is read on another
// (the screen draws one line until the chat arrives, and the chat one
// frame interval later at the soonest).
func Run(ctx context.Context, o chat.Options) error {
	t, err := openTerminal()
	if err != nil {
		return err
	}
	t.styleFor()
	defer paceGC()()
	return run(ctx, o, t)
}

// run is Run on the terminal t.
func run(ctx context.Context, o chat.Options, t *terminal) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	root, p := newProgram(ctx, o, t)
	first := root.nextLoad()
	opened := make(chan *chat.Service, 1)
	stopSignals := quitOnSignals(p)
	defer stopSignals()
	go func() {
		svc, err := chat.Open(ctx, o)
		if err != nil {
			p.Send(openFailedMsg{err})
			opened <- nil
			return
		}
		p.Send(serviceMsg{svc, loadChat(svc, "", first)()})
		go forward(ctx, svc, p)
		opened <- svc
	}()
	if err := t.enter(frameEvery); err != nil {
		cancel()
		if svc := <-opened; svc != nil {
			svc.Close()
		}
		return err
	}
	stopWatch := t.watch(p)
	_, err := p.Run()
	stopWatch()
	t.leave()
	cancel() // Send gives up once the program has ended
	if svc := <-opened; svc != nil {
		// However the program ended — ctrl+c, SIGHUP, SIGTERM, the
		// terminal gone — what was typed is saved before the database
		// closes. The model is no longer updated: reading it is safe.
		root.flush(flushTimeout)
		svc.Close()
	}
	if err == tea.ErrProgramKilled {
		err = nil
	}
	if err == nil {
		err = root.start.openErr
	}
	return err
}

// newProgram sets up the screen before its database is open; Run reads
// the first chat.
func newProgram(ctx context.Context, o chat.Options, t *terminal) (*model, *tea.Program) {
	// Ask the terminal about its background before the program owns it, so
	// the reply cannot leak into input.
	lipgloss.HasDarkBackground()
	root := newScreen()
	root.dbPath = o.DBPath
	root.provider = o.ProviderName()
	// The first load prepares its frame at the terminal's size, which
	// watch then reports as no change.
	if w, h, ok := t.size(); ok {
		root.width, root.height, root.sized = w, h, true
		root.pane.resize(root.formWidth(), root.formHeight())
		root.refreshTranscript()
		root.arrange()
	}
	root.start.preloaded = true
	var m tea.Model = root
	if os.Getenv("FOLLOWUP_EXIT_AFTER_FIRST_FRAME") == "1" {
		m = firstFrame{model: root, at: os.Getenv("FOLLOWUP_FIRST_FRAME_AT"), logged: new(bool)}
	}
	// Signals are quitOnSignals', so that every one of them saves the
	// drafts on the way out.
	return root, tea.NewProgram(drawn{Model: m, term: t}, append(t.options(), tea.WithContext(ctx),
		tea.WithoutSignalHandler())...)
}

// forward relays the host's events, other processes' commits included, to
// the program.
func forward(ctx context.Context, svc *chat.Service, p *tea.Program) {
	for e := range svc.Subscribe(ctx) {
		p.Send(eventMsg(e))
	}
}

// firstFrame quits right after the first complete frame is drawn — the
// chat with its form loaded — so bench/run.sh can time start to first
// frame (FOLLOWUP_EXIT_AFTER_FIRST_FRAME=1). The work that would follow
// that frame (cursor blink, drawing older transcript entries, counting
// questions elsewhere) is not started: the floor quits the same way. With
// FOLLOWUP_FIRST_FRAME_AT=FILE it appends to FILE the wall-clock time, in
// nanoseconds, at which that frame was drawn.
type firstFrame struct {
	*model
	at     string
	logged *bool
}

func (f firstFrame) complete() bool { return f.firstFrameReady() }

// firstFrameReady reports whether the screen shows what its first frame is
// for: the first chat read, with its active form built if a question waits.
func (m *model) firstFrameReady() bool {
	return m.loaded && (len(m.pane.pending) == 0 || m.pane.live != nil)
}

// Update implements tea.Model.
func (f firstFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.model.Update(msg)
	if f.complete() {
		// The frame for this update is given before the quit arrives,
		// and the terminal draws it on the way out (frames.stop).
		return f, tea.Quit
	}
	return f, cmd
}

// View implements tea.Model.
func (f firstFrame) View() string {
	v := f.model.View()
	if f.complete() && f.at != "" && !*f.logged {
		*f.logged = true
		logTime(f.at)
	}
	return v
}

// logTime appends the time now, in Unix nanoseconds, to a file.
func logTime(path string) {
	if fh, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintln(fh, time.Now().UnixNano())
		fh.Close()
	}
}
