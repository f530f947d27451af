package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"followup/chat"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// harness runs the root model under teatest with the host's events
// forwarded, as Run does.
type harness struct {
	t   *testing.T
	svc *chat.Service
	tm  *teatest.TestModel
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := chat.Open(ctx, chat.Options{DBPath: filepath.Join(t.TempDir(), "ui.db")})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, newModel(svc), teatest.WithInitialTermSize(100, 30))
	events := svc.Subscribe(ctx)
	go func() {
		for e := range events {
			tm.Send(eventMsg(e))
		}
	}()
	t.Cleanup(func() {
		cancel()
		tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(3*time.Second))
		svc.Close()
	})
	return &harness{t: t, svc: svc, tm: tm}
}

func (h *harness) typeText(s string) {
	h.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)})
}

func (h *harness) key(k tea.KeyType) { h.tm.Send(tea.KeyMsg{Type: k}) }

func (h *harness) runes(s string) {
	for _, r := range s {
		h.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// waitFor waits until the screen shows every one of want.
func (h *harness) waitFor(want ...string) {
	h.t.Helper()
	teatest.WaitFor(h.t, h.tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func (h *harness) onlyRun() chat.RunView {
	h.t.Helper()
	cs, err := h.svc.Chats(context.Background(), 10)
	if err != nil || len(cs) != 1 {
		h.t.Fatalf("chats = %v, %v", cs, err)
	}
	iv, err := h.svc.Inspect(context.Background(), cs[0].ID)
	if err != nil || iv.Run == nil {
		h.t.Fatalf("inspect: %v", err)
	}
	return *iv.Run
}

func (h *harness) waitRun(state string) chat.RunView {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := h.onlyRun()
		if r.State == state {
			return r
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("run state %s, want %s", r.State, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func resultJSON(r chat.RunView) string {
	b, _ := json.Marshal(r.Result)
	return string(b)
}

func TestAnswerDeployForm(t *testing.T) {
	h := newHarness(t)
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment", "production", "staging")
	// Focus moves to the new form once the user has paused typing.
	h.waitFor("tab next field")
	h.key(tea.KeyEnter) // production is the first option
	h.waitFor("Review before sending", "Environment: production")
	h.key(tea.KeyEnter)
	h.waitFor("Deploying to")
	run := h.waitRun("succeeded")
	if got := resultJSON(run); got != `{"environment":"production"}` {
		t.Fatalf("result = %s", got)
	}
}

func TestCancelAsksFirstAndTaskGoesOn(t *testing.T) {
	h := newHarness(t)
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	time.Sleep(dialogGrace)
	h.key(tea.KeyCtrlX)
	h.waitFor("Cancel this question?")
	if r := h.onlyRun(); r.State != "waiting_input" {
		t.Fatalf("cancel acted before confirmation: run %s", r.State)
	}
	time.Sleep(dialogGrace + 50*time.Millisecond)
	h.runes("y")
	h.waitFor("cancelled by you", "without that detail")
	h.waitRun("succeeded")
}

func TestStopTaskExpiresQuestions(t *testing.T) {
	h := newHarness(t)
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	h.key(tea.KeyCtrlS)
	h.waitFor("Stop the whole task?")
	time.Sleep(dialogGrace + 50*time.Millisecond)
	h.runes("y")
	h.waitFor("the task was stopped")
	h.waitRun("stopped")
}

func TestChatMessageBecomesProposal(t *testing.T) {
	h := newHarness(t)
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	h.typeText("use staging")
	h.key(tea.KeyEnter)
	h.waitFor("The agent proposes a change", "Environment: (empty) → staging")
	// Keys typed in the first instant after the dialog opens are typing:
	// they go to the composer and decide nothing; nor does a dialog key
	// while the composer holds text.
	h.runes("a")
	time.Sleep(dialogGrace + 50*time.Millisecond)
	h.runes("k")
	h.waitFor("› ak")
	if r := h.onlyRun(); r.State != "waiting_input" {
		t.Fatalf("run %s before the proposal was decided", r.State)
	}
	h.key(tea.KeyBackspace)
	h.key(tea.KeyBackspace)
	h.runes("a")
	// Accepting fills the form and leaves focus in it, ready to submit.
	h.waitFor("Proposal accepted", "tab next field")
	h.key(tea.KeyEnter)
	h.waitFor("Review before sending", "Environment: staging")
	h.key(tea.KeyEnter)
	run := h.waitRun("succeeded")
	if got := resultJSON(run); got != `{"environment":"staging"}` {
		t.Fatalf("result = %s", got)
	}
}

func TestTabRowSwitchesRequests(t *testing.T) {
	h := newHarness(t)
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	run := h.waitRun("waiting_input")
	second := `{"requestKey":"second","source":{"kind":"dynamic","definition":{"title":"Pick a region",
		"fields":[{"name":"region","type":"select","options":["eu","us"]}]}}}`
	if _, err := h.svc.OpenRequest(context.Background(), run.ID, "call_x", json.RawMessage(second)); err != nil {
		t.Fatal(err)
	}
	h.waitFor("1 Choose an environment", "2 Pick a region")
	// The tabs wrap around: previous from the first is the last.
	h.key(tea.KeyCtrlP)
	h.waitFor("region *")
	h.key(tea.KeyCtrlN)
	h.waitFor("Environment *")
}

func TestHelpIsGeneratedFromKeys(t *testing.T) {
	h := newHarness(t)
	h.waitFor("Type a message to start")
	h.key(tea.KeyF1)
	want := []string{}
	for _, group := range defaultKeys().FullHelp() {
		for _, b := range group {
			want = append(want, b.Help().Desc)
		}
	}
	h.waitFor(want...)
}

func TestUntrustedTextIsNeutralised(t *testing.T) {
	msgs := []chat.Message{{ID: 1, Role: "assistant", Content: "hi \x1b]0;owned\x07 \x1b[31mred\x1b[0m \x07bell"}}
	out := newTranscript().render(msgs, nil, 80, 0)
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("escape reached the terminal: %q", out)
	}
}
