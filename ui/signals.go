package ui

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Bubble Tea v1.3.10 turns SIGTERM into a quit that skips Update, and
// leaves SIGHUP (the terminal window closed) to Go's default, which ends
// the process at once: either way the last half-second of typing, not yet
// autosaved, was lost. The screen handles them itself: each signal quits
// the program, and Run saves every pending draft before the process exits,
// as ctrl+c does.

// flushTimeout bounds the drafts' last save after the program ended.
const flushTimeout = 3 * time.Second

// quitGrace is how long the program may take to end after a signal before
// it is killed (its drafts are still saved: Run flushes them after).
const quitGrace = time.Second

// quitOnSignals quits p on SIGHUP, SIGTERM or SIGINT (a SIGINT, not the
// ctrl+c key, when input is not a terminal); stop restores the default
// handling.
func quitOnSignals(p *tea.Program) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		p.Quit()
		select {
		case <-sigs: // a second signal: no more waiting
		case <-time.After(quitGrace):
		case <-done:
			return
		}
		p.Kill()
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
