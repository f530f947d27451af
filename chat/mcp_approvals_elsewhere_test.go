package chat

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/store"
)

// An approval decided in a process that does not have the call's server
// (a shell without --mcp-config, next to the screen that shows it): allowing
// is refused and the approval stays pending for the screen, which then
// makes the call; denying needs no server and tells the model tool_denied.
func TestMCPApprovalDecidedWhereTheServerIsNot(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	db := filepath.Join(t.TempDir(), "followup.db")
	screen := fxOpenMCP(t, db, mcp.Config{Path: "test", Servers: []mcp.ServerConfig{{Name: "everything",
		Type: mcp.TypeStdio, Command: command, Args: args, Shown: "server-everything stdio", Timeout: 20 * time.Second}}})
	shell, err := Open(context.Background(), Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shell.Close() })
	ctx := context.Background()

	sent, _ := fxAsk(t, screen, "", `call everything.echo {"message": "one"}`)
	ap := fxOnlyApproval(t, screen, sent.ChatID)
	_, err = shell.Approve(ctx, ap.ID, false, "")
	if CodeOf(err) != CodeInvalidArgument || !strings.Contains(err.Error(), `MCP server "everything"`) ||
		!strings.Contains(err.Error(), "--mcp-config") || !strings.Contains(err.Error(), "stays pending") {
		t.Fatalf("approve without the server: %v", err)
	} else if d := AsError(err).Details; d["server"] != "everything" {
		t.Fatalf("details = %v", d)
	}
	// Nothing was consumed: a drive here changes nothing either.
	if run, err := shell.Drive(ctx, sent.RunID); err != nil || run.State != store.RunWaitingInput {
		t.Fatalf("drive without the server: %+v, %v", run, err)
	}
	if got := fxOnlyApproval(t, screen, sent.ChatID); got.ID != ap.ID || got.State != store.ApprovalPending {
		t.Fatalf("approval = %+v", got)
	}
	if _, err := screen.Approve(ctx, ap.ID, false, ""); err != nil {
		t.Fatal(err)
	}
	if run, err := screen.Drive(ctx, sent.RunID); err != nil || run.State != store.RunSucceeded || !strings.Contains(run.Reply, "one") {
		t.Fatalf("run = %+v, %v", run, err)
	}

	other, _ := fxAsk(t, screen, "", `call everything.echo {"message": "two"}`)
	ap = fxOnlyApproval(t, screen, other.ChatID)
	if _, err := shell.Deny(ctx, ap.ID, ""); err != nil {
		t.Fatal(err)
	}
	run, err := shell.Drive(ctx, other.RunID)
	if err != nil || run.State != store.RunSucceeded || !strings.Contains(run.Reply, "denied") || strings.Contains(run.Reply, "NOT_FOUND") {
		t.Fatalf("run after a deny without the server = %+v, %v", run, err)
	}
	if steps := fxSteps(t, shell, other.ChatID); len(steps) != 1 || steps[0].Outcome != OutcomeDenied {
		t.Fatalf("steps = %+v", steps)
	}
}

// The call's transcript row is there as soon as its approval is asked,
// waiting for it; deciding keeps that one row, which then shows the step.
func TestMCPApprovalAskedHasItsRow(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	ctx := context.Background()
	rows := func(chatID string) []Message {
		ms, _, err := s.TranscriptPage(ctx, chatID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []Message
		for _, m := range ms {
			if m.Role == RoleToolStep {
				out = append(out, m)
			}
		}
		return out
	}
	for _, allow := range []bool{true, false} {
		sent, _ := fxAsk(t, s, "", `call everything.echo {"message": "row"}`)
		ap := fxOnlyApproval(t, s, sent.ChatID)
		got := rows(sent.ChatID)
		if len(got) != 1 || got[0].ToolCallID != ap.ToolCallID {
			t.Fatalf("rows while asked = %+v", got)
		}
		v, err := s.ToolStep(ctx, got[0].RunID, got[0].ToolCallID)
		if err != nil || v.State != StepAwaitingApproval || v.ApprovalID != ap.ID || v.Server != "everything" || v.Tool != "echo" {
			t.Fatalf("view while asked = %+v, %v", v, err)
		}
		want := OutcomeOK
		if allow {
			_, err = s.Approve(ctx, ap.ID, false, "")
		} else {
			_, err = s.Deny(ctx, ap.ID, "")
			want = OutcomeDenied
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Drive(ctx, sent.RunID); err != nil {
			t.Fatal(err)
		}
		if got = rows(sent.ChatID); len(got) != 1 {
			t.Fatalf("rows after the decision = %+v", got)
		}
		if v, err = s.ToolStep(ctx, got[0].RunID, got[0].ToolCallID); err != nil || v.State != store.StepDone || v.Outcome != want {
			t.Fatalf("view after the decision = %+v, %v", v, err)
		}
	}
}
