package ui

import (
	"reflect"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/bench/dataset"
)

// settle applies the messages cmd brings, and those their updates bring,
// as the program would; a command that waits (a tick, the focus pause)
// is left behind, so only the work a switch does at once is counted.
func settle(m *model, cmd tea.Cmd) {
	for depth := 0; cmd != nil && depth < 6; depth++ {
		var next []tea.Cmd
		for _, msg := range prompt(cmd) {
			_, c := m.Update(msg)
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
}

// prompt runs cmd and the batches and sequences it returns side by side,
// and returns the messages that came within a few milliseconds.
func prompt(cmd tea.Cmd) []tea.Msg {
	out := make(chan tea.Msg, 64)
	var spawn func(c tea.Cmd)
	n := 0
	spawn = func(c tea.Cmd) {
		if c == nil {
			return
		}
		n++
		go func() { out <- c() }()
	}
	spawn(cmd)
	var msgs []tea.Msg
	timeout := time.After(20 * time.Millisecond)
	for n > 0 {
		select {
		case msg := <-out:
			n--
			switch v := reflect.ValueOf(msg); {
			case msg == nil:
			case v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)):
				// tea.Batch's and tea.Sequence's messages are slices of commands.
				for i := range v.Len() {
					spawn(v.Index(i).Interface().(tea.Cmd))
				}
			default:
				msgs = append(msgs, msg)
			}
		case <-timeout:
			return msgs
		}
	}
	return msgs
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSwitchChat is a chat switch on the large database as the user
// makes it: ctrl+o opens the chat list, down moves to the next chat,
// enter opens it; the list's read, the chat's snapshot, its form and
// the frame are applied through Update as the program does. It reports
// the process's CPU time per switch (docs/performance.md: ≤ 10 ms), which leaves
// out the time spent waiting on the commands left behind.
func BenchmarkSwitchChat(b *testing.B) {
	for _, sz := range []struct {
		name string
		sz   dataset.Sizes
	}{{"chats=1000", dataset.Default()}, {"chats=10000", tenThousandChats()}} {
		b.Run(sz.name, func(b *testing.B) {
			svc, _ := dataset.Open(b, sz.sz)
			m := openScreen(b, svc, "")
			keys := []tea.KeyMsg{{Type: tea.KeyCtrlO}, {Type: tea.KeyDown}, {Type: tea.KeyEnter}}
			opened := map[string]bool{}
			b.ReportAllocs()
			cpu := cpuNow()
			for b.Loop() {
				for _, k := range keys {
					_, cmd := m.Update(k)
					settle(m, cmd)
				}
				_ = m.View()
				opened[m.chatID] = true
			}
			b.ReportMetric(float64(cpuNow()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/switch")
			if len(opened) < min(b.N, 2) {
				b.Fatalf("%d switches opened %d chats", b.N, len(opened))
			}
		})
	}
}

// tenThousandChats is the large database with ten times the chats (and
// the same messages and requests spread over them).
func tenThousandChats() dataset.Sizes {
	sz := dataset.Default()
	sz.Chats = 10_000
	return sz
}
