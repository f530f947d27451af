package ui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"

	"followup/chat"
)

// serviceMsg brings the database Run opened and the first chat read from
// it, so keys typed meanwhile reach that chat.
type serviceMsg struct {
	svc   *chat.Service
	first tea.Msg // the first load's snapshotMsg
}

func (msg serviceMsg) apply(m *model) tea.Cmd {
	m.setService(msg.svc)
	m.start.opening = true
	cmds := []tea.Cmd{m.update(msg.first), tea.Tick(mcpStartDelay, func(time.Time) tea.Msg { return startMCPMsg{} })}
	// What was typed while the database opened, in order, to the chat
	// now on screen.
	early := m.start.early
	m.start.early = nil
	for _, k := range early {
		cmds = append(cmds, m.update(k))
	}
	return tea.Batch(cmds...)
}

// openFailedMsg ends the program: the database could not be opened.
type openFailedMsg struct{ err error }

func (msg openFailedMsg) apply(m *model) tea.Cmd {
	m.start.openErr = msg.err
	return tea.Quit
}

// suspendMsg suspends the screen as ctrl+z does: SIGTSTP from elsewhere.
type suspendMsg struct{}

func (msg suspendMsg) apply(m *model) tea.Cmd {
	return m.suspend()
}

// flushTimeout bounds the drafts' last save after the program ended.
const flushTimeout = 3 * time.Second

// Run opens the chat screen on the database o names until the user quits.
// A database that cannot be opened ends the program with its error.
//
// The program takes over the terminal while the database opens and the
// first chat is read on another goroutine (the screen draws one line
// until the chat arrives).
func Run(ctx context.Context, o chat.Options) error {
	opts, width, height, closeTTY, err := terminalOptions()
	if err != nil {
		return err
	}
	defer closeTTY()
	// Ask the terminal about its background before the program owns it, so
	// the reply cannot leak into input.
	lipgloss.HasDarkBackground()
	return run(ctx, o, width, height, opts...)
}

// run is Run on a terminal of width×height (0 when unknown) that opts
// name.
func run(ctx context.Context, o chat.Options, width, height int, opts ...tea.ProgramOption) error {
	root := newScreen()
	root.start.dbPath, root.start.provider = o.DBPath, o.ProviderName()
	if width > 0 && height > 0 {
		// The first load builds its form at the terminal's size.
		root.width, root.height, root.sized = width, height, true
		root.pane.resize(formSize(root.width, root.height))
		root.refreshTranscript()
		root.arrange()
	}
	root.mcp.opener, _ = exec.LookPath("xdg-open") // "" when none is installed
	root.start.preloaded = true
	first := root.nextLoad()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sigs signals
	p := tea.NewProgram(root, append(opts, tea.WithAltScreen(),
		tea.WithFilter(sigs.filter), tea.WithContext(ctx))...)
	defer sigs.relay(p)()
	opened := make(chan *chat.Service, 1)
	go func() {
		o.SyncTemplatesLater = true
		svc, err := chat.Open(ctx, o)
		if err != nil {
			p.Send(openFailedMsg{err})
			opened <- nil
			return
		}
		p.Send(serviceMsg{svc, loadChat(svc, "", first)()})
		// The skills' templates are written once the first chat is on
		// screen; what that expires reaches it as events.
		events := svc.Subscribe(ctx)
		if err := svc.SyncTemplates(ctx); err != nil {
			p.Send(openFailedMsg{err})
		}
		go forward(events, p)
		opened <- svc
	}()
	_, err := p.Run()
	cancel() // Send gives up once the program has ended
	if svc := <-opened; svc != nil {
		// However the program ended — ctrl+c, SIGHUP, SIGTERM, the
		// terminal gone — what was typed is saved before the database
		// closes. The model is no longer updated: reading it is safe.
		root.flush(flushTimeout)
		svc.Close()
	}
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, tea.ErrInterrupted) {
		err = nil
	}
	if err == nil {
		err = root.start.openErr
	}
	return err
}

// terminalOptions are the program's input and output: standard input and
// output when they are terminals, else the controlling terminal, /dev/tty,
// so the screen is never drawn into a file. It returns the terminal's size
// (0 when unknown) and what closes /dev/tty.
func terminalOptions() (opts []tea.ProgramOption, width, height int, closeTTY func(), err error) {
	in, out := os.Stdin, os.Stdout
	closeTTY = func() {}
	if !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		switch {
		case err != nil && !term.IsTerminal(in.Fd()):
			return nil, 0, 0, nil, err
		case err == nil:
			closeTTY = func() { tty.Close() }
			if !term.IsTerminal(in.Fd()) {
				in = tty
			}
			if !term.IsTerminal(out.Fd()) {
				out = tty
				// Lip Gloss styles for the terminal drawn on: its colours
				// and its background.
				o := termenv.NewOutput(tty)
				lipgloss.DefaultRenderer().SetOutput(o)
				lipgloss.SetColorProfile(o.EnvColorProfile())
				lipgloss.SetHasDarkBackground(o.HasDarkBackground())
			}
		}
	}
	width, height, _ = term.GetSize(out.Fd())
	return []tea.ProgramOption{tea.WithInput(&wholeChars{File: in}), tea.WithOutput(out)}, width, height, closeTTY, nil
}

// signals handles what Bubble Tea leaves to Go's defaults: SIGHUP (the
// terminal closed) would end the process before its drafts are saved, so
// it quits the program (Run saves them); SIGTSTP from elsewhere suspends
// the screen as ctrl+z does. Bubble Tea handles SIGINT and SIGTERM.
type signals struct {
	ch chan os.Signal
	// suspending: Bubble Tea is suspending the program. It stops the
	// process with a SIGTSTP of its own, which the Go runtime does not act
	// on once the signal is watched: that one stops it with SIGSTOP.
	suspending atomic.Bool
}

// relay watches the signals for p until stop.
func (s *signals) relay(p *tea.Program) (stop func()) {
	s.ch = make(chan os.Signal, 1)
	signal.Notify(s.ch, syscall.SIGHUP, syscall.SIGTSTP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-s.ch:
				switch {
				case sig == syscall.SIGHUP:
					p.Quit()
				case s.suspending.Load():
					_ = syscall.Kill(syscall.Getpid(), syscall.SIGSTOP)
				default:
					p.Send(suspendMsg{})
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(s.ch)
		close(done)
	}
}

// filter is the program's: it normalises what is read before the screen
// sees it (pasteLines), and notes when Bubble Tea suspends and resumes.
func (s *signals) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.SuspendMsg:
		s.suspending.Store(true)
	case tea.ResumeMsg:
		s.suspending.Store(false)
	}
	return pasteLines(msg)
}

// Terminals paste a line break as a carriage return (what the Enter key
// sends), and the text widgets keep only line feeds as line breaks: a
// paste's CR LF and lone CR are line feeds before any widget sees it, in
// the composer and in every form field alike.
func pasteLines(msg tea.Msg) tea.Msg {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !k.Paste {
		return msg
	}
	out := make([]rune, 0, len(k.Runes))
	for i, r := range k.Runes {
		if r == '\r' {
			if i+1 < len(k.Runes) && k.Runes[i+1] == '\n' {
				continue // CR LF: the LF follows
			}
			r = '\n'
		}
		out = append(out, r)
	}
	k.Runes = out
	return k
}

// forward relays the host's events, other processes' commits included, to
// the program.
func forward(events <-chan chat.Event, p *tea.Program) {
	for e := range events {
		p.Send(eventMsg(e))
	}
}
