// Package cmdtest runs Bubble Tea commands in tests the way a program
// would, without a program and without waiting on the clock: a command is
// run to its end however long the machine takes (a database write under
// load is slow, not lost), and a timer — tea.Tick, tea.Every, a cursor's
// blink — is left out, so a test says itself when its time has come by
// giving the model the timer's message. Deciding "a command that has not
// answered yet is a timer" by a deadline is what made such tests flaky.
package cmdtest

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Patience is how long one command may take before Run panics, failing
// the test: far past any honest command on a loaded machine, it only
// catches a command that waits on something that never comes.
const Patience = 30 * time.Second

// timerFuncs name the closures of the commands that wait on the clock
// (as the compiler names them, inlined into a caller or not).
var timerFuncs = []string{
	"bubbletea.Tick.func", ".Tick.func", // tea.Tick
	"bubbletea.Every.func", ".Every.func", // tea.Every
	".BlinkCmd.func", // bubbles/cursor: textinput and textarea blinks
}

// IsTimer reports whether c only waits for the clock and then says so.
func IsTimer(c tea.Cmd) bool {
	if c == nil {
		return false
	}
	fn := runtime.FuncForPC(reflect.ValueOf(c).Pointer())
	if fn == nil {
		return false
	}
	name := fn.Name()
	for _, t := range timerFuncs {
		if strings.Contains(name, t) {
			return true
		}
	}
	return false
}

// Unwrap returns the commands a batch or a sequence message carries, in
// order, and nil for any other message.
func Unwrap(msg tea.Msg) []tea.Cmd {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b
	}
	// tea.Sequence's message is an unexported slice of commands.
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return out
}

// Run runs c, and the batches and sequences it yields, and returns the
// messages they bring in order. Timers are left out.
func Run(c tea.Cmd) []tea.Msg { return run(c, false) }

// RunTimers is Run with the timers waited for too: for a test that asks
// what a command schedules (a timer that never fires fails it).
func RunTimers(c tea.Cmd) []tea.Msg { return run(c, true) }

func run(c tea.Cmd, timers bool) []tea.Msg {
	if c == nil || (!timers && IsTimer(c)) {
		return nil
	}
	msg := call(c)
	if msg == nil {
		return nil
	}
	inner := Unwrap(msg)
	if inner == nil {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range inner {
		out = append(out, run(c, timers)...)
	}
	return out
}

// call runs one command, and panics if it never ends.
func call(c tea.Cmd) tea.Msg {
	done := make(chan tea.Msg, 1)
	go func() { done <- c() }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(Patience):
		fn := runtime.FuncForPC(reflect.ValueOf(c).Pointer())
		panic(fmt.Sprintf("cmdtest: the command %s has not ended after %v", fn.Name(), Patience))
	}
}
