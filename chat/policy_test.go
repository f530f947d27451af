package chat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"followup/agent"
	"followup/agent/agenttest"
	"followup/chat"
	"followup/store"
)

// scripted is a provider whose turn n (from 1) is turn(n).
type scripted struct {
	calls atomic.Int64
	turn  func(n int) agent.Message
}

func (p *scripted) Name() string { return "scripted" }

func (p *scripted) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	return agent.Response{Message: p.turn(int(p.calls.Add(1)))}, nil
}

func openWith(t *testing.T, p agent.Provider, policy chat.Policy) *chat.Service {
	t.Helper()
	s, err := chat.Open(context.Background(), chat.Options{DBPath: filepath.Join(t.TempDir(), "f.db"), Provider: p, Policy: policy})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	checkItemsAtEnd(t, s)
	return s
}

// askN is one input_request call per key.
func askN(keys ...string) []agent.ToolCall {
	var calls []agent.ToolCall
	for i, k := range keys {
		args := fmt.Sprintf(`{"requestKey":%q,"source":{"kind":"dynamic","definition":{"title":%q,"fields":[{"name":"v","type":"text","label":"V"}]}}}`, k, k)
		calls = append(calls, agent.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: "input_request", Arguments: json.RawMessage(args)})
	}
	return calls
}

// toolResults are the run's tool messages, in order.
func toolResults(t *testing.T, w *world, runID string) []string {
	t.Helper()
	rows, err := w.sql.Query(`SELECT content FROM messages WHERE run_id = ? AND role = 'tool' ORDER BY id`, runID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		rows.Scan(&c)
		out = append(out, c)
	}
	return out
}

// TestQuestionsPerRunDefault: the ninth question of a run is refused with
// LIMIT_EXCEEDED; the eight before it wait for the user.
func TestQuestionsPerRunDefault(t *testing.T) {
	t.Parallel()
	keys := []string{"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9"}
	p := &scripted{turn: func(n int) agent.Message {
		if n == 1 {
			return agent.Message{Content: "Some questions.", ToolCalls: askN(keys...)}
		}
		return agent.Message{Content: "Waiting."}
	}}
	s := openWith(t, p, chat.DefaultPolicy())
	sent, err := s.Send(t.Context(), "", "Plan it", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Drive(t.Context(), sent.RunID)
	if err != nil || v.State != store.RunWaitingInput {
		t.Fatalf("drive: %+v %v", v, err)
	}
	pend, _ := s.Pending(t.Context(), sent.ChatID)
	if len(pend) != 8 {
		t.Fatalf("%d pending, want 8", len(pend))
	}
	w := &world{t: t, sql: openSQL(t, s.Path())}
	res := toolResults(t, w, sent.RunID)
	if len(res) != 9 || !strings.Contains(res[8], `"LIMIT_EXCEEDED"`) || strings.Contains(res[7], "LIMIT_EXCEEDED") {
		t.Fatalf("tool results: %v", res)
	}
}

// TestQuestionsFlag: `--questions 2` through the CLI refuses the third.
func TestQuestionsFlag(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	f.Then(agenttest.OpenAITurnReply("Three questions.", "input_request", askArgs("a"), "input_request", askArgs("b"), "input_request", askArgs("c")))
	r := w.cli.ok(nil, "--questions", "2", "ask", "Plan it")
	if str(r.JSON, "state") != store.RunWaitingInput || len(agenttest.Path(r.JSON, "pending").([]any)) != 2 {
		t.Fatalf("ask: %s", r)
	}
	res := toolResults(t, w, str(r.JSON, "runId"))
	if len(res) != 3 || !strings.Contains(res[2], `"LIMIT_EXCEEDED"`) {
		t.Fatalf("tool results: %v", res)
	}
	if f.Calls() != 1 {
		t.Fatalf("%d model calls: the run should wait for its two questions", f.Calls())
	}
}

func askArgs(key string) string {
	return fmt.Sprintf(`{"requestKey":%q,"source":{"kind":"dynamic","definition":{"title":%q,"fields":[{"name":"v","type":"text","label":"V"}]}}}`, key, key)
}

// TestModelCallCap: a run that keeps calling the model fails at the cap
// with a LIMIT_EXCEEDED message, after exactly that many calls.
func TestModelCallCap(t *testing.T) {
	t.Parallel()
	p := &scripted{turn: func(n int) agent.Message {
		return agent.Message{ToolCalls: []agent.ToolCall{{ID: fmt.Sprintf("call_%d", n), Name: "input_list", Arguments: json.RawMessage(`{}`)}}}
	}}
	policy := chat.DefaultPolicy()
	policy.ModelCalls = 3
	s := openWith(t, p, policy)
	sent, err := s.Send(t.Context(), "", "Loop", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Drive(t.Context(), sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if v.State != store.RunFailed || !strings.HasPrefix(v.Error, "LIMIT_EXCEEDED") || !strings.Contains(v.Error, "3 model calls") {
		t.Fatalf("run %s: %q", v.State, v.Error)
	}
	if p.calls.Load() != 3 || v.ModelCalls != 3 {
		t.Fatalf("%d calls made, %d recorded, want 3", p.calls.Load(), v.ModelCalls)
	}
}
