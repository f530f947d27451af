package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
)

// An MCP client's question (asked through mcp serve) has no followup run:
// answering or cancelling it prints "run": null and, in text, how the
// asking agent reads the outcome — never an empty run line.
func TestAnswerAndCancelWithoutARun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "s.db")
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	// The session lives in this process, as in a running mcp serve.
	ss, err := svc.OpenServeSession(ctx, chat.ServeClient{Name: "claude-code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	ask := func(key string) string {
		t.Helper()
		var res struct {
			OK        bool   `json:"ok"`
			RequestID string `json:"requestId"`
		}
		raw := ss.Request(ctx, json.RawMessage(`{"requestKey":"`+key+`","reason":"the release needs a target",
			"source":{"kind":"dynamic","definition":{"title":"Environment","fields":[
			{"name":"env","type":"select","required":true,"options":[{"value":"staging"},{"value":"production"}]},
			{"name":"note","type":"text","required":true}]}}}`))
		if json.Unmarshal(raw, &res); !res.OK {
			t.Fatalf("input_request: %s", raw)
		}
		return res.RequestID
	}

	rq := ask("env-1")
	partial := runCLI(t, db, "answer", rq, "--values-json", `{"env":"staging"}`)
	if partial.code != 0 || partial.stdout != rq+" kept as partial; still missing: note\n" {
		t.Fatalf("partial: exit %d, %q %q", partial.code, partial.stdout, partial.stderr)
	}
	r := runCLI(t, db, "answer", rq, "--values-json", `{"note":"go"}`, "--json")
	doc := decode(t, r)
	if run, has := doc["run"]; r.code != 0 || !has || run != nil || doc["receipt"].(map[string]any)["applyState"] != "applied" {
		t.Fatalf("answer --json: exit %d, %s", r.code, r.stdout)
	}
	var read struct {
		Answer struct {
			Values map[string]any `json:"values"`
		} `json:"answer"`
		Result struct {
			Status string `json:"status"`
		} `json:"result"`
	}
	if raw := ss.ReadAnswer(ctx, json.RawMessage(`{"requestId":"`+rq+`"}`)); json.Unmarshal(raw, &read) != nil ||
		read.Result.Status != "input_received" || read.Answer.Values["env"] != "staging" {
		t.Fatalf("the agent reads %s", raw)
	}

	text := runCLI(t, db, "answer", ask("env-2"), "--values-json", `{"env":"production","note":"now"}`)
	lines := strings.Split(strings.TrimSuffix(text.stdout, "\n"), "\n")
	if text.code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], " answered") ||
		lines[1] != "claude-code, the MCP client that asked, reads the answer through input_wait or input_read_answer" {
		t.Fatalf("answer text: exit %d, %q", text.code, text.stdout)
	}

	c := runCLI(t, db, "cancel", ask("env-3"))
	lines = strings.Split(strings.TrimSuffix(c.stdout, "\n"), "\n")
	if c.code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], " cancelled") ||
		!strings.Contains(lines[1], "reads that it was cancelled through input_wait or input_read_answer") {
		t.Fatalf("cancel text: exit %d, %q", c.code, c.stdout)
	}
	cj := runCLI(t, db, "cancel", ask("env-4"), "--json")
	if doc := decode(t, cj); cj.code != 0 || doc["run"] != nil || doc["receipt"].(map[string]any)["kind"] != "cancel" {
		t.Fatalf("cancel --json: exit %d, %s", cj.code, cj.stdout)
	}
}

// pending names a titled option as its title and its value, the value
// being what an answer sends: an MCP client's schema with oneOf titles.
func TestPendingShowsOptionTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "o.db")
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ss, err := svc.OpenServeSession(ctx, chat.ServeClient{Name: "claude-code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	raw := ss.Request(ctx, json.RawMessage(`{"requestKey":"hero","source":{"kind":"schema","requestedSchema":{
		"type":"object","properties":{"hero":{"type":"string","title":"Hero image",
		"oneOf":[{"const":"hero-1","title":"Mountain at dawn"},{"const":"hero-2","title":"City at night"}]}},"required":["hero"]}}}`))
	if !strings.Contains(string(raw), `"ok":true`) {
		t.Fatalf("input_request: %s", raw)
	}
	r := runCLI(t, db, "pending")
	if r.code != 0 || !strings.Contains(r.stdout, `: one of Mountain at dawn (hero-1) | City at night (hero-2), required`) {
		t.Fatalf("pending: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
