package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"followup/agent"
	"followup/store"
)

// fxClock is a settable clock for Options.Now.
type fxClock struct{ ms atomic.Int64 }

func newFxClock() *fxClock {
	c := &fxClock{}
	c.ms.Store(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixMilli())
	return c
}

func (c *fxClock) Now() time.Time          { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *fxClock) Advance(d time.Duration) { c.ms.Add(d.Milliseconds()) }

// fxOpen opens a service on its own temporary database with the default
// offline provider; clock may be nil.
func fxOpen(t *testing.T, clock *fxClock) *Service {
	t.Helper()
	o := Options{DBPath: filepath.Join(t.TempDir(), "followup.db")}
	if clock != nil {
		o.Now = clock.Now
	}
	s, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	return s
}

// fxAsk sends a message (new chat when chatID is "") and drives the run.
func fxAsk(t *testing.T, s *Service, chatID, text string) (Sent, RunView) {
	t.Helper()
	ctx := context.Background()
	sent, err := s.Send(ctx, chatID, text, "")
	if err != nil {
		t.Fatalf("Send(%q): %v", text, err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil {
		t.Fatalf("Drive: %v", err)
	}
	return sent, run
}

// fxOnePending returns the single pending request of a chat.
func fxOnePending(t *testing.T, s *Service, chatID string) RequestView {
	t.Helper()
	rs, err := s.Pending(context.Background(), chatID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("pending requests = %d, want 1", len(rs))
	}
	return rs[0]
}

// fxDeploy opens a chat whose run waits on the deploy question.
func fxDeploy(t *testing.T, s *Service) (Sent, RequestView) {
	t.Helper()
	sent, run := fxAsk(t, s, "", "Check deployment")
	if run.State != store.RunWaitingInput {
		t.Fatalf("run state = %s, want waiting_input", run.State)
	}
	return sent, fxOnePending(t, s, sent.ChatID)
}

// fxCode fails unless err carries code.
func fxCode(t *testing.T, err error, code string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %s", code)
	}
	e := AsError(err)
	if e.Code != code {
		t.Fatalf("err = %v, want %s", err, code)
	}
	return e
}

// fxRows is a snapshot of everything stored about a request, for
// comparing before and after a refused operation.
func fxRows(t *testing.T, s *Service, requestID string) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"requests WHERE id", "revisions WHERE request_id", "drafts WHERE request_id",
		"answers WHERE request_id", "proposals WHERE request_id", "deliveries WHERE request_id", "messages WHERE request_id"} {
		fmt.Fprintf(&b, "%s:\n", table)
		b.WriteString(fxDump(t, s, "SELECT * FROM "+table+" = ?", requestID))
	}
	return b.String()
}

// fxDump renders the rows of a query as text.
func fxDump(t *testing.T, s *Service, query string, args ...any) string {
	t.Helper()
	rows, err := fxSQL(t, s).QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&b, "%s=%v ", cols[i], v)
		}
		b.WriteString("\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// fxCount runs a COUNT query.
func fxCount(t *testing.T, s *Service, query string, args ...any) int {
	t.Helper()
	var n int
	if err := fxSQL(t, s).QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// fxDecl marshals an input_request declaration.
func fxDecl(t *testing.T, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fxTextDef is a dynamic source with the given required text fields.
func fxTextDef(title string, names ...string) map[string]any {
	fields := []any{}
	for _, n := range names {
		fields = append(fields, map[string]any{"name": n, "type": "text", "label": n})
	}
	return map[string]any{"kind": "dynamic", "definition": map[string]any{"title": title, "fields": fields}}
}

// fxRun starts a run in a new chat without driving it, so tests can open
// requests in it directly.
func fxRun(t *testing.T, s *Service) Sent {
	t.Helper()
	sent, err := s.Send(context.Background(), "", "a task to test", "")
	if err != nil {
		t.Fatal(err)
	}
	return sent
}

// fxToolJSON decodes a tool result.
func fxToolJSON(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("tool result %s: %v", raw, err)
	}
	return m
}

// fxSQL opens a second connection on the service's database for raw
// reads the typed queries do not offer.
func fxSQL(t *testing.T, s *Service) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.Path()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// agentCC is the tool call context of a run.
func agentCC(sent Sent) agent.CallContext {
	return agent.CallContext{ChatID: sent.ChatID, RunID: sent.RunID, ToolCallID: "call_fx"}
}
