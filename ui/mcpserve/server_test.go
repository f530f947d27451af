package mcpserve

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioPeer is a server run by ServeStdio over pipes, and a go-sdk client
// connected to it.
type stdioPeer struct {
	inbox  *fakeInbox
	client *mcp.ClientSession
	cancel context.CancelFunc
	served chan error
	toSrv  *io.PipeWriter
}

// serveStdio starts a server and connects a client named name. version
// "" lets the client pick (the sessionless 2026-07-28 protocol).
func serveStdio(t *testing.T, name, version string) *stdioPeer {
	t.Helper()
	p := &stdioPeer{inbox: newFakeInbox(), served: make(chan error, 1)}
	srvIn, toSrv := io.Pipe()
	fromSrv, srvOut := io.Pipe()
	p.toSrv = toSrv
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func() { p.served <- ServeStdio(ctx, p.inbox, Options{Version: "test"}, srvIn, srvOut) }()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: fromSrv, Writer: toSrv}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	p.client = cs
	t.Cleanup(func() {
		cs.Close()
		cancel()
		select {
		case <-p.served:
		case <-time.After(5 * time.Second):
			t.Error("ServeStdio did not return after its context ended")
		}
	})
	return p
}

// call calls a tool and decodes its structured result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want 1 (the JSON as text)", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: text content is not JSON: %v\n%s", name, err, text)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var again map[string]any
	json.Unmarshal(structured, &again)
	if b1, b2 := mustMarshal(out), mustMarshal(again); b1 != b2 {
		t.Fatalf("%s: structured content %s differs from the text %s", name, b2, b1)
	}
	if ok, _ := out["ok"].(bool); res.IsError == ok {
		t.Fatalf("%s: isError %v with ok %v", name, res.IsError, out["ok"])
	}
	return out, res
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func TestToolList(t *testing.T) {
	p := serveStdio(t, "lister", "")
	res, err := p.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.Title == "" {
			t.Errorf("%s has no description or title", tool.Name)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		var m any
		json.Unmarshal(schema, &m)
		checkTypes(t, tool.Name, "", m)
		// Withdrawing a question destroys nothing: a client whose policy
		// refuses destructive tools (Codex under "never") may call it.
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint) {
			t.Errorf("%s is not marked as destroying nothing: %+v", tool.Name, a)
		}
	}
	sort.Strings(names)
	want := "input_cancel input_capabilities input_list input_read_answer input_request input_wait"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools %q, want %q", got, want)
	}
}

// checkTypes fails on any "type" that is not a single string (an inferred
// schema's ["null","array"] is what strict validators flag).
func checkTypes(t *testing.T, tool, path string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if ty, ok := x["type"]; ok {
			if _, isString := ty.(string); !isString {
				t.Errorf("%s: schema at %q has type %v", tool, path, ty)
			}
		}
		for k, c := range x {
			if k == "properties" {
				// Its keys are property names, each holding a schema.
				for name, ps := range c.(map[string]any) {
					checkTypes(t, tool, path+"/properties/"+name, ps)
				}
				continue
			}
			checkTypes(t, tool, path+"/"+k, c)
		}
	case []any:
		for _, c := range x {
			checkTypes(t, tool, path+"/[]", c)
		}
	}
}

func TestRequestWaitAnswer(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol "+version, func(t *testing.T) {
			p := serveStdio(t, "Claude Code", version)
			out, _ := call(t, p.client, "input_request", map[string]any{"requestKey": "k1"})
			id, _ := out["requestId"].(string)
			if id == "" {
				t.Fatalf("no requestId: %v", out)
			}
			s := <-p.inbox.opened
			if s.client.Name != "Claude Code" || s.client.Transport != "stdio" {
				t.Errorf("session client %+v", s.client)
			}

			// Nobody answers: pending at the timeout.
			start := time.Now()
			out, _ = call(t, p.client, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": 0.2})
			if out["state"] != "pending" || time.Since(start) < 200*time.Millisecond {
				t.Errorf("wait without an answer: %v after %v", out, time.Since(start))
			}

			// Answered while waiting: the wait returns it.
			go func() {
				time.Sleep(100 * time.Millisecond)
				p.inbox.answer(id, map[string]any{"destination": "Lyon"})
			}()
			out, _ = call(t, p.client, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": 10})
			if out["state"] != "answered" || mustMarshal(out["answer"]) != `{"values":{"destination":"Lyon"}}` {
				t.Errorf("wait: %v", out)
			}
		})
	}
}

func TestWaitArguments(t *testing.T) {
	p := serveStdio(t, "c", "")
	// Each says in words what is wrong, never the decoder's Go names.
	for _, c := range []struct {
		args map[string]any
		says string
	}{
		{map[string]any{"requestId": "rq_1", "timeoutSeconds": -1}, "timeoutSeconds must be a number of seconds, 0 or more (got -1)"},
		{map[string]any{"requestId": "rq_1", "timeoutSeconds": "3"}, `timeoutSeconds must be a number of seconds (got the string "3")`},
		{map[string]any{"requestId": "rq_1", "timeoutSeconds": true}, "timeoutSeconds must be a number of seconds (got true)"},
		{map[string]any{"timeoutSeconds": 1}, "requestId is required"},
		{map[string]any{"requestId": 7}, "requestId must be a string (got the number 7)"},
		{map[string]any{"requestId": []any{"rq_1"}}, "requestId must be a string (got a list)"},
		{map[string]any{"requestId": "rq_1", "timeout": 1}, `unknown argument "timeout" (the arguments are requestId, timeoutSeconds)`},
	} {
		out, res := call(t, p.client, "input_wait", c.args)
		msg, _ := out["error"].(map[string]any)["message"].(string)
		if !res.IsError || errCode(out) != "INVALID_ARGUMENT" || msg != c.says {
			t.Errorf("input_wait %v: %v, want the message %q", c.args, out, c.says)
		}
	}
	// An unknown id is the session's answer, not the server's.
	out, _ := call(t, p.client, "input_wait", map[string]any{"requestId": "rq_404", "timeoutSeconds": 1})
	if errCode(out) != "NOT_FOUND" {
		t.Errorf("unknown id: %v", out)
	}

	// More than 50 s (a model asking for a minute) waits 50 s, and the
	// result says so; within the bound nothing is added.
	out, _ = call(t, p.client, "input_request", map[string]any{"requestKey": "k1"})
	id, _ := out["requestId"].(string)
	s := <-p.inbox.opened
	p.inbox.answer(id, map[string]any{"destination": "Lyon"})
	for _, c := range []struct {
		asked float64
		want  time.Duration
		says  any
	}{{60, 50 * time.Second, float64(50)}, {51, 50 * time.Second, float64(50)}, {50, 50 * time.Second, nil}} {
		out, res := call(t, p.client, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": c.asked})
		p.inbox.mu.Lock()
		waited := s.waited[len(s.waited)-1]
		p.inbox.mu.Unlock()
		// The wait was bounded, but it ended with the answer: no note.
		if res.IsError || out["state"] != "answered" || out["timeoutSeconds"] != nil || out["note"] != nil || waited != c.want {
			t.Errorf("timeoutSeconds %v: waited %v, result %v", c.asked, waited, out)
		}
	}
}

// TestWaitNoteOnlyWhilePending: a wait bounded at 50 s that ran out says
// so; one that ended in a final state does not.
func TestWaitNoteOnlyWhilePending(t *testing.T) {
	var got map[string]any
	json.Unmarshal(withWaited(json.RawMessage(`{"ok":true,"state":"pending"}`), 50), &got)
	if note, _ := got["note"].(string); got["timeoutSeconds"] != float64(50) || !strings.Contains(note, "at most 50 seconds") {
		t.Errorf("pending: %v", got)
	}
	for _, final := range []string{"answered", "cancelled", "expired"} {
		out := json.RawMessage(`{"ok":true,"state":"` + final + `"}`)
		if string(withWaited(out, 50)) != string(out) {
			t.Errorf("%s: %s", final, withWaited(out, 50))
		}
	}
}

func TestErrorResult(t *testing.T) {
	p := serveStdio(t, "c", "")
	out, res := call(t, p.client, "input_request", map[string]any{"reason": "no key"})
	if !res.IsError || errCode(out) != "INPUT_REQUEST_INVALID" {
		t.Errorf("invalid request: %v", out)
	}
	if _, ok := out["requestId"]; ok {
		t.Errorf("a failure carries a requestId: %v", out)
	}
}

func TestClientClosesDuringWait(t *testing.T) {
	p := serveStdio(t, "c", "2025-11-25")
	out, _ := call(t, p.client, "input_request", map[string]any{"requestKey": "k"})
	id := out["requestId"].(string)
	s := <-p.inbox.opened
	waited := make(chan error, 1)
	go func() {
		_, err := p.client.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
			Arguments: map[string]any{"requestId": id, "timeoutSeconds": 50}})
		waited <- err
	}()
	time.Sleep(100 * time.Millisecond)
	// The client goes away (its process ends): the server reads EOF.
	start := time.Now()
	p.toSrv.Close()
	select {
	case err := <-p.served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		p.served <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio still runs after its client closed")
	}
	if !p.inbox.isEnded(s) {
		t.Fatal("the session was not ended")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("ending took %v with a wait in flight", d)
	}
	if got := s.requests[id].reason; got != "disconnected" {
		t.Errorf("pending request after the end: %q", got)
	}
}

func TestServerStopsEndsSession(t *testing.T) {
	p := serveStdio(t, "c", "")
	call(t, p.client, "input_request", map[string]any{"requestKey": "k"})
	s := <-p.inbox.opened
	p.cancel()
	select {
	case <-p.served:
		p.served <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio still runs after its context ended")
	}
	if !p.inbox.isEnded(s) {
		t.Error("the session was not ended")
	}
}

// Who asks is the client's human name: its clientInfo's title when it
// gives one, else its name.
func TestClientTitleNamesTheAsker(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{})
	for _, c := range []struct{ name, title, want string }{{"claude-code", "Claude Code", "Claude Code"}, {"codex-mcp-client", "", "codex-mcp-client"}} {
		client := mcp.NewClient(&mcp.Implementation{Name: c.name, Title: c.title, Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: tokenClient(testToken)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if s := <-inbox.opened; s.client.Name != c.want {
			t.Errorf("client %q titled %q asks as %q, want %q", c.name, c.title, s.client.Name, c.want)
		}
	}
}
