package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent"
	"followup/chat"
	"followup/forms/cmdtest"
)

// refusingOnce refuses the first model call after it is armed, then
// answers as the demo agent: a key that was wrong, then fixed.
type refusingOnce struct{ armed atomic.Bool }

func (p *refusingOnce) Name() string { return "offline" }

func (p *refusingOnce) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	if p.armed.CompareAndSwap(true, false) {
		return agent.Response{}, &agent.ProviderError{Status: 401, Message: "invalid api key"}
	}
	return agent.Offline{}.Complete(ctx, req)
}

// ctrl+r retries the open chat's failed run from its recorded history, and
// the status line says so; with nothing to move on it says why.
func TestCtrlRRetriesTheFailedRun(t *testing.T) {
	t.Parallel()
	p := &refusingOnce{}
	k := newKit(t, func(o *chat.Options) { o.Provider = p })
	m, svc, ctx := k.m, k.svc, context.Background()
	p.armed.Store(true)
	sent, err := svc.Send(ctx, "", "Check deployment", "")
	if err != nil {
		t.Fatal(err)
	}
	if run, _ := svc.Drive(ctx, sent.RunID); run.State != "failed" {
		t.Fatalf("run %s, want failed", run.State)
	}
	k.load(sent.ChatID)
	cmd := m.onKey(tea.KeyMsg{Type: tea.KeyCtrlR})
	msgs := cmdtest.Run(cmd)
	if len(msgs) != 1 {
		t.Fatalf("ctrl+r brought %v", msgs)
	}
	drive := m.update(msgs[0])
	if m.notice.Text() != "Retrying the failed run from where it stopped…" {
		t.Fatalf("status %q", m.notice.Text())
	}
	deliver(m, drive)
	if run, _ := svc.GetRun(ctx, sent.RunID); run.State != "waiting_input" {
		t.Fatalf("after ctrl+r the run is %s", run.State)
	}
	if v := frameOf(m); !strings.Contains(v, "Choose an environment") || !strings.Contains(v, "Retried the failed run; the task is waiting for your answer.") {
		t.Fatalf("the retried run's question is not shown:\n%s", v)
	}

	// Now the run waits for the user: nothing to resume.
	m.setFocus(focusComposer)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlR}))
	if m.notice.Text() != "Nothing to resume: the task is waiting for your answer." {
		t.Fatalf("status %q", m.notice.Text())
	}
}
