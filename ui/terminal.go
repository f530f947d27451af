package ui

import (
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
)

// terminal is what the screen reads keys from and draws on. The screen
// draws with frames instead of Bubble Tea's renderer (which wakes at its
// frame rate while nothing changes), so it does itself what that renderer
// set up: raw input, the alternate screen, the hidden cursor, bracketed
// paste, and the size, at start and on every SIGWINCH.
type terminal struct {
	in    *os.File  // keys: standard input, or /dev/tty when input is piped; nil for none
	out   io.Writer // frames: standard output, or /dev/tty when output is redirected
	outFd int       // out's descriptor when it is a terminal, else -1
	tty   *os.File  // /dev/tty when opened here, closed on leave

	raw   *term.State // in's mode before raw, to restore
	frame *frames
}

// openTerminal returns the process's terminal: keys from standard input
// when it is one, and frames on standard output when it is one; what is
// not a terminal (input piped in, output redirected to a file) is replaced
// by the controlling terminal, /dev/tty, so the screen is never drawn into
// a file. With no controlling terminal either, frames go to standard
// output as they are.
func openTerminal() (*terminal, error) {
	t := &terminal{in: os.Stdin, out: os.Stdout, outFd: -1}
	inTTY, outTTY := term.IsTerminal(os.Stdin.Fd()), term.IsTerminal(os.Stdout.Fd())
	if !inTTY || !outTTY {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		switch {
		case err != nil && !inTTY:
			return nil, err
		case err == nil:
			t.tty = tty
			if !inTTY {
				t.in = tty
			}
			if !outTTY {
				t.out, outTTY = tty, true
			}
		}
	}
	if f, ok := t.out.(*os.File); ok && outTTY {
		t.outFd = int(f.Fd())
	}
	return t, nil
}

// styleFor makes Lip Gloss style for the terminal the screen draws on
// when that is not standard output (redirected to a file): its colours,
// and its background, asked of it before the program owns it.
func (t *terminal) styleFor() {
	if t.tty == nil || t.out != io.Writer(t.tty) {
		return
	}
	out := termenv.NewOutput(t.tty)
	lipgloss.DefaultRenderer().SetOutput(out)
	lipgloss.SetColorProfile(out.EnvColorProfile())
	lipgloss.SetHasDarkBackground(out.HasDarkBackground())
}

// size is the terminal's width and height; ok is false when out is no
// terminal.
func (t *terminal) size() (width, height int, ok bool) {
	if t.outFd < 0 {
		return 0, 0, false
	}
	w, h, err := term.GetSize(uintptr(t.outFd))
	return w, h, err == nil && w > 0 && h > 0
}

// options are the program's: its keys from in, and no renderer of its own.
func (t *terminal) options() []tea.ProgramOption {
	var in io.Reader
	if t.in != nil {
		in = t.in
	}
	return []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(t.out), tea.WithoutRenderer()}
}

// enter puts the terminal in the screen's modes and starts drawing frames
// at most every interval.
func (t *terminal) enter(every time.Duration) error {
	if t.in != nil && term.IsTerminal(t.in.Fd()) {
		raw, err := term.MakeRaw(t.in.Fd())
		if err != nil {
			return err
		}
		t.raw = raw
	}
	w, h, _ := t.size()
	_, _ = io.WriteString(t.out, ansi.SetAltScreenSaveCursorMode+ansi.EraseEntireScreen+
		ansi.CursorHomePosition+ansi.HideCursor+ansi.SetBracketedPasteMode)
	t.frame = newFrames(t.out, every, w, h)
	t.frame.holdFirst()
	t.frame.start()
	return nil
}

// leave draws the last frame and gives the terminal back as it was.
func (t *terminal) leave() {
	if t.frame != nil {
		t.frame.stop()
		_, _ = io.WriteString(t.out, ansi.ResetBracketedPasteMode+ansi.ShowCursor+
			ansi.ResetAltScreenSaveCursorMode)
	}
	if t.raw != nil {
		_ = term.Restore(t.in.Fd(), t.raw)
	}
	if t.tty != nil {
		t.tty.Close()
	}
}

// watchSize sends p the terminal's size now and after every change, until
// stop.
func (t *terminal) watchSize(p *tea.Program) (stop func()) {
	if t.outFd < 0 {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			if w, h, ok := t.size(); ok {
				p.Send(tea.WindowSizeMsg{Width: w, Height: h})
			}
			select {
			case <-sigs:
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// drawn is the screen's model as the program runs it: each view goes to
// the terminal's frames, and a resize reaches them before the view drawn
// at the new size. The first frame waits (one interval at most) for the
// model's firstFrameReady: the chat with its form, not the line shown while
// it loads.
type drawn struct {
	tea.Model
	term *terminal // its frames start before the program runs
}

// Update implements tea.Model.
func (d drawn) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		d.term.frame.resize(ws.Width, ws.Height)
	}
	m, cmd := d.Model.Update(msg)
	d.Model = m
	return d, cmd
}

// View implements tea.Model: the program's renderer draws nothing.
func (d drawn) View() string {
	d.term.frame.write(d.Model.View())
	if r, ok := d.Model.(interface{ firstFrameReady() bool }); !ok || r.firstFrameReady() {
		d.term.frame.ready()
	}
	return ""
}
