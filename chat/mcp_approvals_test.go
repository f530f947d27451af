package chat

import (
	"context"
	"strings"
	"testing"

	"followup/agent/mcp"
	"followup/store"
)

func TestMCPCallWaitsForApprovalThenRuns(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	ctx := context.Background()
	sent, run := fxAsk(t, s, "", `call everything.echo {"message": "hello there"}`)
	if run.State != store.RunWaitingInput {
		t.Fatalf("run = %s, want waiting_input", run.State)
	}
	ap := fxOnlyApproval(t, s, sent.ChatID)
	if ap.Server != "everything" || ap.Tool != "echo" || string(ap.Arguments) != `{"message":"hello there"}` {
		t.Fatalf("approval = %+v", ap)
	}
	if got := fxSteps(t, s, sent.ChatID); len(got) != 0 {
		t.Fatalf("steps before the approval: %+v", got)
	}
	d, err := s.Approve(ctx, ap.ID, false, "")
	if err != nil {
		t.Fatal(err)
	}
	if d.State != store.ApprovalAllowed || d.Scope != store.ScopeOnce {
		t.Fatalf("decision = %+v", d)
	}
	run, err = s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "hello there") {
		t.Fatalf("run = %+v", run)
	}
	steps := fxSteps(t, s, sent.ChatID)
	if len(steps) != 1 || steps[0].Outcome != OutcomeOK || steps[0].State != store.StepDone || steps[0].Attempts != 1 {
		t.Fatalf("steps = %+v", steps)
	}
}

func TestMCPAllowForChatAsksOnceAndDenyTellsTheModel(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	ctx := context.Background()
	sent, _ := fxAsk(t, s, "", `call everything.echo {"message": "one"}`)
	ap := fxOnlyApproval(t, s, sent.ChatID)
	if _, err := s.Approve(ctx, ap.ID, true, "cmd-1"); err != nil {
		t.Fatal(err)
	}
	// The same command again returns its receipt; a second decision is refused.
	if d, err := s.Approve(ctx, ap.ID, true, "cmd-1"); err != nil || d.Scope != store.ScopeChat {
		t.Fatalf("repeat = %+v, %v", d, err)
	}
	if _, err := s.Deny(ctx, ap.ID, ""); CodeOf(err) != CodeTargetClosed {
		t.Fatalf("deny after allow: %v", err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || !strings.Contains(run.Reply, "one") {
		t.Fatalf("run = %+v, %v", run, err)
	}
	// Allowed for this chat: the next call runs without a second card.
	_, run = fxAsk(t, s, sent.ChatID, `call everything.echo {"message": "two"}`)
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "two") {
		t.Fatalf("second call: %+v", run)
	}
	if as, _ := s.PendingApprovals(ctx, sent.ChatID); len(as) != 0 {
		t.Fatalf("a second approval: %+v", as)
	}
	// Another chat asks again; denying tells the model.
	other, _ := fxAsk(t, s, "", `call everything.echo {"message": "three"}`)
	ap = fxOnlyApproval(t, s, other.ChatID)
	if _, err := s.Deny(ctx, ap.ID, ""); err != nil {
		t.Fatal(err)
	}
	run, err = s.Drive(ctx, other.RunID)
	if err != nil || run.State != store.RunSucceeded || !strings.Contains(run.Reply, "denied") {
		t.Fatalf("after deny: %+v, %v", run, err)
	}
	steps := fxSteps(t, s, other.ChatID)
	if len(steps) != 1 || steps[0].Outcome != OutcomeDenied || steps[0].Status != StatusDenied || steps[0].Attempts != 0 {
		t.Fatalf("steps = %+v", steps)
	}
}

func TestMCPStopExpiresPendingApproval(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	ctx := context.Background()
	sent, _ := fxAsk(t, s, "", `call everything.echo {"message": "x"}`)
	ap := fxOnlyApproval(t, s, sent.ChatID)
	if _, err := s.Stop(ctx, sent.RunID, ""); err != nil {
		t.Fatal(err)
	}
	got, err := s.Approval(ctx, ap.ID)
	if err != nil || got.State != store.ApprovalExpired {
		t.Fatalf("approval after stop = %+v, %v", got, err)
	}
	if _, err := s.Approve(ctx, ap.ID, false, ""); CodeOf(err) != CodeTargetClosed {
		t.Fatalf("approve after stop: %v", err)
	}
}

func TestMCPCallOfAMissingToolSaysWhy(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	_, run := fxAsk(t, s, "", "call everything.no-such-tool")
	if run.State != store.RunSucceeded || !strings.Contains(run.Reply, "MCP server everything has no tool of this name") {
		t.Fatalf("run = %+v", run)
	}
	_, run = fxAsk(t, s, "", "call elsewhere.echo")
	if !strings.Contains(run.Reply, "no configured MCP server offers a tool of this name") {
		t.Fatalf("run = %+v", run)
	}
}
