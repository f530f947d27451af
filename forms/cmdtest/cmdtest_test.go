package cmdtest

import (
	"reflect"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
)

type doneMsg struct{ n int }

// after is a caller of tea.Tick the compiler may inline it into, as the
// screen's and the form's timers are.
func after(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return doneMsg{-1} })
}

func TestTimersAreKnownByWhatTheyAre(t *testing.T) {
	blink := cursor.New()
	blink.Focus()
	for name, c := range map[string]tea.Cmd{
		"tea.Tick":        tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil }),
		"tea.Every":       tea.Every(time.Hour, func(time.Time) tea.Msg { return nil }),
		"a caller's Tick": after(time.Hour),
		"a blink":         blink.BlinkCmd(),
	} {
		if !IsTimer(c) {
			t.Errorf("%s is not taken for a timer", name)
		}
	}
	for name, c := range map[string]tea.Cmd{
		"a message":   func() tea.Msg { return doneMsg{1} },
		"tea.Quit":    tea.Quit,
		"a batch":     tea.Batch(after(time.Hour), func() tea.Msg { return nil }),
		"a sequence":  tea.Sequence(after(time.Hour), func() tea.Msg { return nil }),
		"a slow call": func() tea.Msg { time.Sleep(time.Millisecond); return nil },
	} {
		if IsTimer(c) {
			t.Errorf("%s is taken for a timer", name)
		}
	}
}

// A slow command is waited for, however slow; timers are left out; the
// messages come in the order of the batches and sequences.
func TestRunWaitsForSlowCommandsAndLeavesTimersOut(t *testing.T) {
	slow := func() tea.Msg { time.Sleep(300 * time.Millisecond); return doneMsg{2} }
	c := tea.Batch(
		func() tea.Msg { return doneMsg{1} },
		after(time.Hour),
		tea.Sequence(slow, func() tea.Msg { return doneMsg{3} }),
	)
	got := Run(c)
	want := []tea.Msg{doneMsg{1}, doneMsg{2}, doneMsg{3}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("messages %v, want %v", got, want)
	}
	if got := RunTimers(tea.Batch(after(time.Millisecond), slow)); !reflect.DeepEqual(got, []tea.Msg{doneMsg{-1}, doneMsg{2}}) {
		t.Fatalf("with timers: %v", got)
	}
}
