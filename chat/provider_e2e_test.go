package chat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"followup/agent/agenttest"
	"followup/chat"
	"followup/store"
)

const testKey = "sk-followup-e2e-0000"

// providerWorld is a world whose children use the fake model as the
// openai provider.
func providerWorld(t *testing.T, key string) (*world, *fakeModel) {
	f := newFakeModel(t)
	return newWorld(t, f.env(key)...), f
}

// askDeploy asks and returns the run and its one pending request.
func askDeploy(t *testing.T, w *world) (runID, rq string) {
	t.Helper()
	r := w.cli.ok(nil, "ask", "Deploy the release")
	if str(r.JSON, "state") != store.RunWaitingInput || str(r.JSON, "pending", 0, "requestKey") != "deploy-environment" {
		t.Fatalf("ask: %s", r)
	}
	return str(r.JSON, "runId"), str(r.JSON, "pending", 0, "id")
}

// TestProviderRunThroughCLI: the model asks through input_request, the run
// waits, pending shows the request, answer delivers it, and the model's
// next call carries the input_received result.
func TestProviderRunThroughCLI(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	runID, rq := askDeploy(t, w)
	first := f.body(0)
	tools := map[string]bool{}
	for _, tl := range first.Tools {
		tools[tl.Function.Name] = true
	}
	if !tools["input_request"] || first.Messages[0].Role != "system" {
		t.Fatalf("first call: tools %v, messages %+v", tools, first.Messages)
	}
	p := w.cli.ok(nil, "pending")
	if str(p.JSON, "requests", 0, "id") != rq || str(p.JSON, "requests", 0, "runId") != runID {
		t.Fatalf("pending: %s", p)
	}
	a := w.cli.ok(nil, "answer", rq, "--values-json", `{"environment":"staging"}`)
	if str(a.JSON, "run", "state") != store.RunSucceeded || str(a.JSON, "run", "reply") != "Deploying to staging." {
		t.Fatalf("answer: %s", a)
	}
	if f.Calls() != 2 {
		t.Fatalf("%d model calls, want 2", f.Calls())
	}
	got := receivedIn(t, f.body(1), rq)
	if got != 1 {
		t.Fatalf("the second call carries the answer %d times, want once", got)
	}
}

// receivedIn counts the input_received messages for rq in a call.
func receivedIn(t *testing.T, b fakeBody, rq string) int {
	t.Helper()
	n := 0
	for _, m := range b.Messages {
		var p struct {
			Status    string         `json:"status"`
			RequestID string         `json:"requestId"`
			Values    map[string]any `json:"values"`
		}
		if m.Role == "user" && json.Unmarshal([]byte(m.Content), &p) == nil && p.Status == "input_received" {
			if p.RequestID != rq || p.Values["environment"] == nil {
				t.Errorf("input_received message %s", m.Content)
			}
			n++
		}
	}
	return n
}

// TestProviderRetries429: a 429 is retried after its Retry-After and the
// run goes on.
func TestProviderRetries429(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	f.Then(agenttest.JSONReply(429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, "Retry-After", "0"))
	askDeploy(t, w)
	if f.Calls() != 2 {
		t.Fatalf("%d calls, want the 429 and its retry", f.Calls())
	}
}

// TestProviderRefusalFailsRun: a 401 fails the run with the provider's
// message (exit 1, a JSON error), is not retried, and leaves every request
// and answer as it was.
func TestProviderRefusalFailsRun(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	runID, rq := askDeploy(t, w)
	// Record the answer and die before driving, to see the rows as the
	// answer left them.
	r := w.cli.run(crashAt(chat.CrashDrive), "answer", rq, "--values-json", `{"environment":"production"}`)
	if !r.Killed {
		t.Fatalf("answer: %s", r)
	}
	before := w.dump(rq)
	calls := f.Calls()
	f.Then(agenttest.JSONReply(401, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`))
	r = w.cli.run(nil, "resume", runID)
	if r.Code != 1 || r.JSON["ok"] != false || !strings.Contains(str(r.JSON, "error", "message"), "Incorrect API key provided") {
		t.Fatalf("resume: %s", r)
	}
	if f.Calls() != calls+1 {
		t.Errorf("a refusal was retried: %d calls", f.Calls()-calls)
	}
	run, _ := w.svc.GetRun(t.Context(), runID)
	if run.State != store.RunFailed || !strings.Contains(run.Error, "Incorrect API key provided") {
		t.Errorf("run %s: %q", run.State, run.Error)
	}
	if after := w.dump(rq); after != before {
		t.Errorf("the refusal changed the request or its answer:\nbefore %s\nafter  %s", before, after)
	}
}

// dump renders a request's row, revisions and answer.
func (w *world) dump(rq string) string {
	w.t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT json_array(state, closed_reason, revision, digest, partial, updated_at) FROM requests WHERE id = ?`,
		`SELECT json_group_array(json_array(revision, digest, definition)) FROM revisions WHERE request_id = ?`,
		`SELECT json_group_array(json_array(vals, origins, command_id, digest)) FROM answers WHERE request_id = ?`,
	} {
		var s string
		if err := w.sql.QueryRow(q, rq).Scan(&s); err != nil {
			w.t.Fatal(err)
		}
		b.WriteString(s + "\n")
	}
	return b.String()
}

// TestProviderKillWhileDelivering: kill -9 in the middle of delivering an
// answer; resume completes it with exactly one delivery.
func TestProviderKillWhileDelivering(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	runID, rq := askDeploy(t, w)
	r := w.cli.run(crashAt(chat.CrashDeliveryUnknown), "answer", rq, "--values-json", `{"environment":"production"}`)
	if !r.Killed {
		t.Fatalf("answer: %s", r)
	}
	s := w.cli.ok(nil, "show", rq)
	if str(s.JSON, "request", "deliveries", 0, "state") != store.DeliveryUnknown {
		t.Fatalf("show after the kill: %s", s)
	}
	w.checkRecoverable(runID, "after the kill")
	res := w.cli.ok(nil, "resume", runID)
	if str(res.JSON, "run", "state") != store.RunSucceeded || str(res.JSON, "run", "reply") != "Deploying to production." {
		t.Fatalf("resume: %s", res)
	}
	if n := receivedIn(t, f.body(f.Calls()-1), rq); n != 1 {
		t.Fatalf("the model saw the answer %d times", n)
	}
	if n := w.count(`SELECT COUNT(*) FROM deliveries WHERE request_id = ? AND state = 'delivered'`, rq); n != 1 {
		t.Fatalf("%d deliveries", n)
	}
	if n := w.count(`SELECT COUNT(*) FROM messages m JOIN deliveries d ON m.delivery_id = d.id WHERE d.request_id = ?`, rq); n != 1 {
		t.Fatalf("%d history messages for the delivery", n)
	}
}
