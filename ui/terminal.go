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
		in = &wholeChars{File: t.in}
	}
	return []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(t.out), tea.WithoutRenderer()}
}

// enter puts the terminal in the screen's modes and starts drawing frames
// at most every interval.
func (t *terminal) enter(every time.Duration) error {
	if err := t.takeModes(); err != nil {
		return err
	}
	w, h, _ := t.size()
	t.frame = newFrames(t.out, every, w, h)
	t.frame.holdFirst()
	t.frame.start()
	return nil
}

// takeModes puts the terminal in the screen's modes: raw input, the
// alternate screen, cleared, the cursor hidden, bracketed paste.
func (t *terminal) takeModes() error {
	if t.in != nil && term.IsTerminal(t.in.Fd()) {
		raw, err := term.MakeRaw(t.in.Fd())
		if err != nil {
			return err
		}
		t.raw = raw
	}
	_, err := io.WriteString(t.out, ansi.SetAltScreenSaveCursorMode+ansi.EraseEntireScreen+
		ansi.CursorHomePosition+ansi.HideCursor+ansi.SetBracketedPasteMode)
	return err
}

// giveModes gives the terminal back as it was before takeModes.
func (t *terminal) giveModes() {
	_, _ = io.WriteString(t.out, ansi.ResetBracketedPasteMode+ansi.ShowCursor+
		ansi.ResetAltScreenSaveCursorMode)
	if t.raw != nil {
		_ = term.Restore(t.in.Fd(), t.raw)
		t.raw = nil
	}
}

// leave draws the last frame and gives the terminal back as it was.
func (t *terminal) leave() {
	if t.frame != nil {
		t.frame.stop()
		t.giveModes()
	} else if t.raw != nil {
		_ = term.Restore(t.in.Fd(), t.raw)
	}
	if t.tty != nil {
		t.tty.Close()
	}
}

// suspend gives the terminal back and stops the process, as a shell's
// job control expects of ctrl+z; when the shell continues it (fg), the
// screen takes the terminal again and draws every line anew. It returns
// the terminal's size then, which may have changed meanwhile.
func (t *terminal) suspend() (width, height int, sized bool) {
	t.frame.pause()
	t.giveModes()
	// The stop reaches the process's threads a moment after kill returns:
	// wait for the continue, or the screen would take the terminal back
	// before it stopped.
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	if syscall.Kill(syscall.Getpid(), syscall.SIGSTOP) == nil {
		<-cont
	}
	signal.Stop(cont)
	_ = t.takeModes()
	width, height, sized = t.size()
	if sized {
		t.frame.resize(width, height)
	}
	t.frame.resume()
	return width, height, sized
}

// suspendMsg suspends the screen: ctrl+z, or SIGTSTP from elsewhere.
type suspendMsg struct{}

// watch relays the terminal's signals to p until stop: its size now and
// after every SIGWINCH (when out is a terminal), and SIGTSTP (kill -TSTP,
// a shell's suspend) as a suspend that gives the terminal back first (when
// keys come from a terminal).
func (t *terminal) watch(p *tea.Program) (stop func()) {
	var want []os.Signal
	sized := t.outFd >= 0
	if sized {
		want = append(want, syscall.SIGWINCH)
	}
	if t.in != nil && term.IsTerminal(t.in.Fd()) {
		want = append(want, syscall.SIGTSTP)
	}
	if len(want) == 0 {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, want...)
	done := make(chan struct{})
	go func() {
		sig := os.Signal(syscall.SIGWINCH) // the size at start
		for {
			switch {
			case sig == syscall.SIGTSTP:
				p.Send(suspendMsg{})
			case sized:
				if w, h, ok := t.size(); ok {
					p.Send(tea.WindowSizeMsg{Width: w, Height: h})
				}
			}
			select {
			case sig = <-sigs:
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
	if _, ok := msg.(suspendMsg); ok {
		// On the program's goroutine: nothing is updated while stopped.
		w, h, sized := d.term.suspend()
		if !sized {
			return d, nil
		}
		msg = tea.WindowSizeMsg{Width: w, Height: h}
	}
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
