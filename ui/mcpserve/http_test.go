package mcpserve

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"127.0.0.1:7390", "127.0.0.1:7390", ""},
		{"127.0.0.1:0", "127.0.0.1:0", ""},
		{"127.1.2.3:80", "127.1.2.3:80", ""},
		{"[::1]:7390", "[::1]:7390", ""},
		{"localhost:7390", "127.0.0.1:7390", ""},
		{"0.0.0.0:7390", "", "loopback only"},
		{"[::]:7390", "", "loopback only"},
		{":7390", "", "loopback only"},
		{"example.com:7390", "", "loopback only"},
		{"192.168.1.10:7390", "", "loopback only"},
		{"127.0.0.1", "", "HOST:PORT"},
		{"7390", "", "HOST:PORT"},
		{"127.0.0.1:http", "", "port must be a number"},
		{"127.0.0.1:70000", "", "port must be a number"},
	} {
		got, err := CheckAddr(c.in)
		if c.err == "" && (err != nil || got != c.want) {
			t.Errorf("CheckAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("CheckAddr(%q) error %v, want one saying %q", c.in, err, c.err)
		}
	}
}

// serveHTTP runs ServeHTTP on a free loopback port until the test ends.
func serveHTTP(t *testing.T, o HTTPOptions) (*fakeInbox, string) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	inbox := newFakeInbox()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	if o.Token == "" {
		o.Token = testToken
	}
	go func() { served <- ServeHTTP(ctx, inbox, o, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("ServeHTTP: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("ServeHTTP did not return after its context ended")
		}
	})
	return inbox, URL(ln)
}

func connectHTTP(t *testing.T, url, name string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: tokenClient(testToken)}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const testToken = "the-test-token"

// tokenClient sends token as the bearer token of every request.
func tokenClient(token string) *http.Client {
	return &http.Client{Transport: bearer(token)}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func waitEnded(t *testing.T, inbox *fakeInbox, s *fakeSession, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !inbox.isEnded(s) {
		if time.Now().After(deadline) {
			t.Fatalf("session of %q not ended within %v", s.client.Name, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestHTTPSessions(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{})
	a := connectHTTP(t, url, "agent-a")
	b := connectHTTP(t, url, "agent-b")
	names := map[string]bool{}
	for range 2 {
		select {
		case s := <-inbox.opened:
			names[s.client.Name] = true
			if s.client.Transport != "http" {
				t.Errorf("transport %q", s.client.Transport)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("sessions not opened")
		}
	}
	if !names["agent-a"] || !names["agent-b"] {
		t.Fatalf("sessions %v", names)
	}
	out, _ := call(t, a, "input_request", map[string]any{"requestKey": "k"})
	id := out["requestId"].(string)
	// Another session does not see it.
	if out, _ := call(t, b, "input_read_answer", map[string]any{"requestId": id}); errCode(out) != "NOT_FOUND" {
		t.Errorf("another session reads the request: %v", out)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		inbox.answer(id, map[string]any{"x": 1})
	}()
	if out, _ := call(t, a, "input_wait", map[string]any{"requestId": id}); out["state"] != "answered" {
		t.Errorf("wait over HTTP: %v", out)
	}
}

func TestHTTPDeleteEndsAtOnce(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{})
	cs := connectHTTP(t, url, "deleter")
	s := <-inbox.opened
	out, _ := call(t, cs, "input_request", map[string]any{"requestKey": "k"})
	id := out["requestId"].(string)
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
		Arguments: map[string]any{"requestId": id, "timeoutSeconds": 50}})
	time.Sleep(100 * time.Millisecond)

	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", cs.ID())
	start := time.Now()
	resp, err := tokenClient(testToken).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: %s", resp.Status)
	}
	waitEnded(t, inbox, s, 2*time.Second)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("DELETE took %v with a wait in flight", d)
	}
	if got := s.requests[id].reason; got != "disconnected" {
		t.Errorf("pending request after DELETE: %q", got)
	}
}

func TestHTTPSessionTimeout(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{SessionTimeout: 300 * time.Millisecond})
	cs := connectHTTP(t, url, "sleepy")
	s := <-inbox.opened
	call(t, cs, "input_request", map[string]any{"requestKey": "k"})
	// Calls keep it alive...
	for range 3 {
		time.Sleep(150 * time.Millisecond)
		call(t, cs, "input_list", nil)
	}
	if inbox.isEnded(s) {
		t.Fatal("a session that keeps calling timed out")
	}
	// ...silence ends it.
	waitEnded(t, inbox, s, 3*time.Second)
}

func TestHTTPRefusesBrowsers(t *testing.T) {
	_, url := serveHTTP(t, HTTPOptions{})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for name, set := range map[string]func(*http.Request){
		"cross-site fetch": func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") },
		"foreign origin":   func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") },
		"rebound host":     func(r *http.Request) { r.Host = "evil.example" },
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		set(req)
		resp, err := tokenClient(testToken).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %s, want 403", name, resp.Status)
		}
	}
}

// Only a client with the server's token is served: another local user
// reaching the port gets 401, whatever it calls itself.
func TestHTTPNeedsToken(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{Token: "right"})
	for name, client := range map[string]*http.Client{"no token": http.DefaultClient, "wrong token": tokenClient("wrong"), "longer token": tokenClient("right2")} {
		c := mcp.NewClient(&mcp.Implementation{Name: "Claude Code", Version: "1"}, nil)
		if cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client, MaxRetries: -1}, nil); err == nil {
			cs.Close()
			t.Errorf("%s: connected", name)
		} else if !strings.Contains(err.Error(), "Unauthorized") && !strings.Contains(err.Error(), "401") {
			t.Errorf("%s: %v, want 401", name, err)
		}
	}
	select {
	case s := <-inbox.opened:
		t.Fatalf("a session opened without the token: %v", s.client)
	default:
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: tokenClient("right")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call(t, cs, "input_list", nil)
}

// A DELETE the SDK refuses (a foreign Host, a protocol version it does not
// speak) ends nothing: the session's question still waits, and the
// session goes on.
func TestHTTPRefusedDeleteEndsNothing(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{})
	cs := connectHTTP(t, url, "agent")
	s := <-inbox.opened
	out, _ := call(t, cs, "input_request", map[string]any{"requestKey": "k"})
	id := out["requestId"].(string)
	for name, c := range map[string]struct {
		set  func(*http.Request)
		want int
	}{
		"foreign host":     {func(r *http.Request) { r.Host = "evil.example" }, http.StatusForbidden},
		"protocol version": {func(r *http.Request) { r.Header.Set("Mcp-Protocol-Version", "1999-01-01") }, http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(http.MethodDelete, url, nil)
		req.Header.Set("Mcp-Session-Id", cs.ID())
		c.set(req)
		resp, err := tokenClient(testToken).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %s, want %d", name, resp.Status, c.want)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if inbox.isEnded(s) {
		t.Fatal("a refused DELETE ended the session")
	}
	if out, _ := call(t, cs, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": 0}); out["state"] != "pending" {
		t.Errorf("the question after refused DELETEs: %v", out)
	}
}

// A client that leaves without ending its session, with no question
// waiting, has its session ended soon; one whose question waits for the
// user keeps it until the user answers.
func TestHTTPAbandonedSessionEnds(t *testing.T) {
	inbox, url := serveHTTP(t, HTTPOptions{AbandonAfter: 300 * time.Millisecond})
	gone := connectHTTP(t, url, "gone")
	sGone := <-inbox.opened
	call(t, gone, "input_list", nil)
	asker := connectHTTP(t, url, "asker")
	sAsker := <-inbox.opened
	out, _ := call(t, asker, "input_request", map[string]any{"requestKey": "k"})
	waitEnded(t, inbox, sGone, 3*time.Second)
	time.Sleep(500 * time.Millisecond)
	if inbox.isEnded(sAsker) {
		t.Fatal("a session whose question waits was ended as abandoned")
	}
	inbox.answer(out["requestId"].(string), map[string]any{"x": "y"})
	waitEnded(t, inbox, sAsker, 3*time.Second)
}

// Sessions beyond the server's most are refused in words; an ended one
// makes room.
func TestHTTPSessionCap(t *testing.T) {
	_, url := serveHTTP(t, HTTPOptions{Options: Options{MaxSessions: 2}})
	a := connectHTTP(t, url, "a")
	b := connectHTTP(t, url, "b")
	// A session opens when its client says it is ready, which the SDK
	// handles apart from Connect: a call of each makes sure a and b are
	// open before c comes.
	call(t, a, "input_list", nil)
	call(t, b, "input_list", nil)
	c := connectHTTP(t, url, "c")
	out, _ := call(t, c, "input_list", nil)
	if errCode(out) != "LIMIT_EXCEEDED" || !strings.Contains(mustMarshal(out), "2 sessions open") {
		t.Fatalf("a third session: %v", out)
	}
	a.Close()
	time.Sleep(200 * time.Millisecond)
	if out, _ := call(t, c, "input_list", nil); out["ok"] != true {
		t.Fatalf("after a session ended: %v", out)
	}
}

// Over streamable HTTP too, a wait that lasts hears progress on the call's
// own stream when the client gave a token, and none without one.
func TestHTTPWaitSendsProgress(t *testing.T) {
	t.Parallel()
	_, url := serveHTTP(t, HTTPOptions{})
	var heard atomic.Int32
	c := mcp.NewClient(&mcp.Implementation{Name: "progress", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if req.Params.ProgressToken == "w1" && strings.HasPrefix(req.Params.Message, "waiting for the user's answer") {
				heard.Add(1)
			}
		}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: tokenClient(testToken)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, _ := call(t, cs, "input_request", map[string]any{"requestKey": "k"})
	for _, token := range []any{nil, "w1"} {
		p := &mcp.CallToolParams{Name: "input_wait", Arguments: map[string]any{"requestId": r["requestId"], "timeoutSeconds": 3.5}}
		if token != nil {
			p.SetProgressToken(token)
		}
		if _, err := cs.CallTool(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if n := heard.Load(); n != map[bool]int32{true: 0, false: 1}[token == nil] {
			t.Fatalf("token %v: %d progress notifications", token, n)
		}
	}
}
