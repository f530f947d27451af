package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/transcript"
)

func TestAnswerDeployForm(t *testing.T) {
	h := newKit(t).run()
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment", "production", "staging")
	// Focus moves to the new form once the user has paused typing.
	h.waitFor("enter continue")
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
	h := newKit(t).run()
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	h.waitRun("waiting_input")
	h.key(tea.KeyCtrlX)
	h.waitFor("Cancel this question?")
	if r := h.onlyRun(); r.State != "waiting_input" {
		t.Fatalf("cancel acted before confirmation: run %s", r.State)
	}
	// The user opened it with their own key: it takes the answer at once.
	h.runes("y")
	h.waitFor("cancelled by you", "without that detail")
	h.waitRun("succeeded")
}

func TestStopTaskExpiresQuestions(t *testing.T) {
	h := newKit(t).run()
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	h.key(tea.KeyCtrlS)
	h.waitFor("Stop the whole task?")
	h.runes("y")
	h.waitFor("the task was stopped")
	h.waitRun("stopped")
}

func TestChatMessageBecomesProposal(t *testing.T) {
	h := newKit(t)
	h.clock.stop() // nothing moves focus or ends the grace but the test
	h.run()
	h.typeText("Check deployment")
	h.key(tea.KeyEnter)
	h.waitFor("Choose an environment")
	h.typeText("use staging")
	h.key(tea.KeyEnter)
	h.waitFor("The agent proposes a change", "Environment: (no answer) → staging")
	// The proposal waits for the focus while the user types: its keys are
	// text in the composer, and decide nothing.
	h.runes("a")
	h.waitFor("› a")
	h.runes("k")
	h.waitFor("› ak")
	if n := h.pendingProposals(); n != 1 {
		t.Fatalf("%d proposals wait for a decision, want 1: a key typed for the composer decided", n)
	}
	// With the composer empty and a pause, it takes the focus; after a
	// moment's grace its keys decide. The pause counts from the last key
	// the screen has taken, so the clock moves once the composer is empty.
	h.key(tea.KeyBackspace)
	h.key(tea.KeyBackspace)
	h.waitFor("› |Message the agent")
	h.clock.advance(focusPause)
	h.waitFor("ctrl+f to the composer")
	h.clock.advance(dialogGrace)
	h.runes("a")
	// Accepting fills the form and leaves focus in it, ready to submit.
	h.waitFor("Proposal accepted", "enter continue")
	h.clock.advance(burstGap) // keys in the burst of the decision are dropped
	h.key(tea.KeyEnter)
	h.waitFor("Review before sending", "Environment: staging")
	h.key(tea.KeyEnter)
	run := h.waitRun("succeeded")
	if got := resultJSON(run); got != `{"environment":"staging"}` {
		t.Fatalf("result = %s", got)
	}
}

func TestTabRowSwitchesRequests(t *testing.T) {
	h := newKit(t).run()
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
	h := newKit(t).run()
	h.waitFor("Type a message to start")
	h.key(tea.KeyF1)
	want := []string{}
	for _, sec := range defaultKeys().sections() {
		for _, b := range sec.Keys {
			want = append(want, b.Help().Desc)
		}
	}
	h.waitFor(want...)
}

func TestUntrustedTextIsNeutralised(t *testing.T) {
	msgs := []chat.Message{{ID: 1, Role: "assistant", Content: "hi \x1b]0;owned\x07 \x1b[31mred\x1b[0m \x07bell"}}
	out := transcript.New().Content(transcript.Input{Messages: msgs, Width: 80})
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("escape reached the terminal: %q", out)
	}
}
