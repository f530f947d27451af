package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"followup/chat"
	"followup/ui/dialog"
)

// Screens are compared as text: no colour, and times in one zone.
func init() {
	lipgloss.SetColorProfile(termenv.Ascii)
	time.Local = time.UTC
}

// kit is one chat screen on a fresh database, for one test. A test
// drives the model directly (k.m.Update, k.ask, k.load) or runs it as a
// program (k.run, then k.typeText, k.waitFor), never both at once.
type kit struct {
	t     *testing.T
	svc   *chat.Service
	m     *model
	clock *testClock
	tm    *teatest.TestModel // set by run
}

// testClock is the screen's clock in a test: real time that the test
// can move on, or stop. What waits on it (the dialog grace, the pause
// before focus moves) is over at once when the test advances it, and
// never over while it is stopped.
type testClock struct {
	offset  atomic.Int64 // added to the time
	stopped atomic.Int64 // the Unix nanoseconds it stopped at; 0: running
}

func (c *testClock) now() time.Time {
	t := time.Now()
	if s := c.stopped.Load(); s != 0 {
		t = time.Unix(0, s)
	}
	return t.Add(time.Duration(c.offset.Load()))
}

func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// stop holds the clock where it is until advanced.
func (c *testClock) stop() { c.stopped.Store(time.Now().UnixNano()) }

// newModel is the screen on svc, as Run has it once the database opened.
func newModel(svc *chat.Service) *model {
	m := newScreen()
	m.setService(svc)
	return m
}

// newKit opens a screen of 100×30 on a new database; opts adjust the
// host's options (its clock, for one).
func newKit(t *testing.T, opts ...func(*chat.Options)) *kit {
	t.Helper()
	o := chat.Options{DBPath: filepath.Join(t.TempDir(), "ui.db")}
	for _, f := range opts {
		f(&o)
	}
	svc, err := chat.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	k := &kit{t: t, svc: svc, m: newModel(svc), clock: &testClock{}}
	k.m.now = k.clock.now
	k.m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return k
}

// withClock makes the host's clock tick a millisecond per reading from a
// fixed instant, so the times it records are the same on every run.
func withClock(o *chat.Options) {
	var ms atomic.Int64
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	o.Now = func() time.Time { return start.Add(time.Duration(ms.Add(1)) * time.Millisecond) }
}

// run starts the screen as a program under teatest, with the host's
// events forwarded as Run does.
func (k *kit) run() *kit {
	ctx, cancel := context.WithCancel(context.Background())
	k.tm = teatest.NewTestModel(k.t, k.m, teatest.WithInitialTermSize(100, 30))
	events := k.svc.Subscribe(ctx)
	go func() {
		for e := range events {
			k.tm.Send(eventMsg(e))
		}
	}()
	k.t.Cleanup(func() {
		cancel()
		k.tm.Quit()
		k.tm.WaitFinished(k.t, teatest.WithFinalTimeout(3*time.Second))
	})
	return k
}

// ask starts a chat with text and drives its run until it waits or ends.
func (k *kit) ask(text string) chat.Sent {
	k.t.Helper()
	return k.askOn(k.svc, text)
}

// askOn is ask through svc: another process's host when it is one
// (otherProcess).
func (k *kit) askOn(svc *chat.Service, text string) chat.Sent {
	k.t.Helper()
	ctx := context.Background()
	sent, err := svc.Send(ctx, "", text, "")
	if err != nil {
		k.t.Fatal(err)
	}
	if _, err := svc.Drive(ctx, sent.RunID); err != nil {
		k.t.Fatal(err)
	}
	return sent
}

// otherProcess is a second host on the kit's database, as another
// process (the CLI, a serve session) has; its commits reach the screen as
// EvExternal.
func (k *kit) otherProcess() *chat.Service {
	k.t.Helper()
	other, err := chat.Open(context.Background(), chat.Options{DBPath: k.svc.Path()})
	if err != nil {
		k.t.Fatal(err)
	}
	k.t.Cleanup(func() { other.Close() })
	return other
}

// say sends text to a chat and drives the run it joins.
func (k *kit) say(chatID, text string) {
	k.t.Helper()
	ctx := context.Background()
	s, err := k.svc.Send(ctx, chatID, text, "")
	if err != nil {
		k.t.Fatal(err)
	}
	if _, err := k.svc.Drive(ctx, s.RunID); err != nil {
		k.t.Fatal(err)
	}
}

// load applies a fresh snapshot of the chat, as the program would.
func (k *kit) load(chatID string) { k.m.Update(loadChat(k.svc, chatID, prep{})()) }

func (k *kit) typeText(s string) { k.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }

func (k *kit) key(t tea.KeyType) { k.tm.Send(tea.KeyMsg{Type: t}) }

// runes types s one key at a time.
func (k *kit) runes(s string) {
	for _, r := range s {
		k.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// waitFor waits until the program's screen shows every one of want (15 s:
// a whole-suite run on two loaded cores can hold a frame back seconds).
func (k *kit) waitFor(want ...string) {
	k.t.Helper()
	teatest.WaitFor(k.t, k.tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// onlyRun is the run of the only chat.
func (k *kit) onlyRun() chat.RunView {
	k.t.Helper()
	page, err := k.svc.ChatList(context.Background(), "", 10)
	cs := page.Chats
	if err != nil || len(cs) != 1 {
		k.t.Fatalf("chats = %v, %v", cs, err)
	}
	iv, err := k.svc.Inspect(context.Background(), cs[0].ID)
	if err != nil || iv.Run == nil {
		k.t.Fatalf("inspect: %v", err)
	}
	return *iv.Run
}

// pendingProposals counts the proposals waiting for the user's decision
// in the only chat.
func (k *kit) pendingProposals() int {
	k.t.Helper()
	rs, err := k.svc.Pending(context.Background(), k.onlyRun().ChatID)
	if err != nil {
		k.t.Fatal(err)
	}
	n := 0
	for _, r := range rs {
		n += len(r.Proposals)
	}
	return n
}

// waitRun waits until the only chat's run is in state.
func (k *kit) waitRun(state chat.RunState) chat.RunView {
	k.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := k.onlyRun()
		if r.State == state {
			return r
		}
		if time.Now().After(deadline) {
			k.t.Fatalf("run state %s, want %s", r.State, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func resultJSON(r chat.RunView) string {
	b, _ := json.Marshal(r.Result)
	return string(b)
}

// frameOf arranges the screen as an Update would and returns its frame:
// for tests that change the model directly.
func frameOf(m *model) string {
	m.arrange()
	return m.View()
}

// showing reports whether the top dialog is a T.
func showing[T dialog.Dialog](m *model) bool {
	o, ok := m.dialogs.Top()
	if !ok {
		return false
	}
	_, is := o.D.(T)
	return is
}

// containsAll reports whether s holds every one of want.
func containsAll(s string, want ...string) bool {
	for _, w := range want {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// transcriptContent is the transcript's lines, then the stream's.
func (m *model) transcriptContent() string { return m.tr.Content(m.trIn()) }

// streamText is the reply streaming in, and whether it is drawn.
func streamText(m *model) string { s, _ := m.tr.StreamShown(); return s }

func streamShown(m *model) bool { _, ok := m.tr.StreamShown(); return ok }
