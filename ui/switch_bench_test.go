package ui

import (
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/bench/dataset"
)

// settle applies the messages cmd brings, and those their updates bring,
// as the program would. A command that only waits (a tick, a cursor's
// blink) is left behind; every other one runs to its end, however long the
// machine's load makes it, so a switch does the same work under any load.
func settle(tb testing.TB, m *model, cmd tea.Cmd) {
	for depth := 0; cmd != nil && depth < 6; depth++ {
		var next []tea.Cmd
		for _, msg := range prompt(tb, cmd) {
			_, c := m.Update(msg)
			_ = m.View() // Bubble Tea draws after every message
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
}

// waits reports whether c is a command that only waits to send its message.
func waits(c tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name()
	for _, w := range []string{"bubbletea.Tick.", "bubbletea.Every.", "cursor.(*Model).BlinkCmd."} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// prompt runs cmd and the batches and sequences it returns side by side,
// all but those that only wait, and returns their messages.
func prompt(tb testing.TB, cmd tea.Cmd) []tea.Msg {
	out := make(chan tea.Msg, 64)
	n := 0
	spawn := func(c tea.Cmd) {
		if c != nil && !waits(c) {
			n++
			go func() { out <- c() }()
		}
	}
	spawn(cmd)
	var msgs []tea.Msg
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
		case <-time.After(20 * time.Second):
			tb.Fatalf("%d commands still running after 20 s: one that waits for something is not left behind (waits)", n)
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
// the frame are applied through Update as the program does, every
// command but those that only wait run to their end (settle). It reports
// the process's CPU time per switch (docs/performance.md: ≤ 10 ms).
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
					_ = m.View()
					settle(b, m, cmd)
				}
				opened[m.cur.chatID] = true
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
