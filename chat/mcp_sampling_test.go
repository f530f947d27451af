package chat

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"followup/agent"
	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/store"
)

// countingModel is the offline demo, counting the sampling requests that
// reach it.
type countingModel struct {
	agent.Offline
	sampled *atomic.Int32
}

func (c countingModel) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	if req.MaxTokens > 0 {
		c.sampled.Add(1)
	}
	return c.Offline.Complete(ctx, req)
}

// fxSampling opens a service with server-everything (its tools
// auto-approved) whose model counts the sampling requests it answers.
func fxSampling(t *testing.T) (*Service, *atomic.Int32) {
	t.Helper()
	p := mcptest.Find(t)
	sc := mcp.ServerConfig{Name: "everything", Type: mcp.TypeStdio, AutoApprove: mcp.AutoApprove{All: true}, Timeout: 20 * time.Second}
	sc.Command, sc.Args = p.EverythingStdio(t)
	cfg := mcp.Config{Path: "test", Servers: []mcp.ServerConfig{sc}}
	n := &atomic.Int32{}
	s, err := Open(context.Background(), Options{DBPath: filepath.Join(t.TempDir(), "followup.db"),
		Provider: countingModel{sampled: n}, MCP: MCPOptions{Config: &cfg, LogDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.WaitMCP(ctx); err != nil {
		t.Fatal(err)
	}
	return s, n
}

// fxWaitApproval waits for the chat's one pending approval.
func fxWaitApproval(t *testing.T, s *Service, chatID string) ApprovalView {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		as, err := s.PendingApprovals(context.Background(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		if len(as) == 1 {
			return as[0]
		}
		if len(as) > 1 || time.Now().After(deadline) {
			t.Fatalf("pending approvals = %d, want 1", len(as))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

const samplingCall = `call everything.trigger-sampling-request {"prompt": "name three rivers", "maxTokens": 50}`

func TestMCPSamplingWaitsForTheUsersDecision(t *testing.T) {
	s, sampled := fxSampling(t)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		decide func(id string)
		says   string
	}{
		{"allow once", func(id string) {
			if _, err := s.Approve(ctx, id, false, ""); err != nil {
				t.Fatal(err)
			}
		}, `"model": "offline"`},
		{"deny", func(id string) {
			if _, err := s.Deny(ctx, id, ""); err != nil {
				t.Fatal(err)
			}
		}, "User rejected sampling request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := sampled.Load()
			sent, err := s.Send(ctx, "", samplingCall, "")
			if err != nil {
				t.Fatal(err)
			}
			done := driveAsync(s, sent.RunID)
			a := fxWaitApproval(t, s, sent.ChatID)
			v := a.Sampling
			if a.Kind != store.ApprovalSampling || a.Server != "everything" || a.Tool != "trigger-sampling-request" || v == nil ||
				v.SystemPrompt != "You are a helpful test server." || len(v.Messages) != 1 ||
				!strings.Contains(v.Messages[0].Text, "name three rivers") || v.MaxTokens != 50 || v.Cap != 50 || v.Model != "offline" {
				t.Fatalf("approval = %+v, sampling %+v", a, v)
			}
			if run, _ := s.GetRun(ctx, sent.RunID); run.State != RunWaitingInput {
				t.Fatalf("run %s while the decision is pending", run.State)
			}
			time.Sleep(100 * time.Millisecond)
			if n := sampled.Load() - before; n != 0 {
				t.Fatalf("%d sampling requests reached the model before the user decided", n)
			}
			c.decide(a.ID)
			run := waitRun(t, done)
			if run.State != RunSucceeded || !strings.Contains(run.Reply, c.says) {
				t.Fatalf("run %s, reply %q, want it to say %q", run.State, run.Reply, c.says)
			}
			msgs, _, err := s.TranscriptPage(ctx, sent.ChatID, 0, 50)
			if err != nil {
				t.Fatal(err)
			}
			var row string
			for _, m := range msgs {
				if m.Role == RoleSampling {
					row = m.Content
				}
			}
			if !strings.Contains(row, "everything (MCP server) asked followup's model") || !strings.Contains(row, "name three rivers") {
				t.Fatalf("no sampling row in the transcript: %q", row)
			}
			got, err := s.Approval(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "deny" {
				if sampled.Load() != before || got.Sampling.Reply != nil {
					t.Fatal("a denied sampling request reached the model")
				}
				return
			}
			if r := got.Sampling.Reply; r == nil || !strings.Contains(r.Text, "offline demo model") || !strings.Contains(row, r.Text) {
				t.Fatalf("reply %+v, row %q", r, row)
			}
		})
	}
}

func TestMCPSamplingAllowedForTheChatAsksNoMore(t *testing.T) {
	s, sampled := fxSampling(t)
	ctx := context.Background()
	sent, err := s.Send(ctx, "", samplingCall, "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	a := fxWaitApproval(t, s, sent.ChatID)
	if d, err := s.Approve(ctx, a.ID, true, ""); err != nil || d.Scope != store.ScopeChat {
		t.Fatal(d, err)
	}
	waitRun(t, done)
	again, err := s.Send(ctx, sent.ChatID, samplingCall, "")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, again.RunID)
	if err != nil || run.State != RunSucceeded || !strings.Contains(run.Reply, "offline demo model") {
		t.Fatalf("run %+v: %v", run, err)
	}
	if n := sampled.Load(); n != 2 {
		t.Fatalf("the model answered %d sampling requests, want 2", n)
	}
	// Another chat asks again.
	other, err := s.Send(ctx, "", samplingCall, "")
	if err != nil {
		t.Fatal(err)
	}
	done = driveAsync(s, other.RunID)
	if a := fxWaitApproval(t, s, other.ChatID); a.Kind != store.ApprovalSampling {
		t.Fatalf("approval %+v", a)
	}
	if _, err := s.Stop(ctx, other.RunID, ""); err != nil {
		t.Fatal(err)
	}
	waitRun(t, done)
	if n := sampled.Load(); n != 2 {
		t.Fatalf("a stopped task's sampling request reached the model (%d)", n)
	}
}
