package mcpserve_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client that deletes its HTTP session while it waits for an answer
// receives the docs/input-requests.md result of its question, expired because it
// disconnected — what its next look would find, never an internal error.
func TestDeleteSessionDuringWait(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	srv := serveHTTPBinary(t, db)
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: srv.client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	id, _ := callTool(t, cs, "input_request", tripRequest("k"))["requestId"].(string)
	waited := make(chan map[string]any, 1)
	go func() {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
			Arguments: map[string]any{"requestId": id, "timeoutSeconds": 30}})
		if err != nil {
			t.Error(err)
			waited <- nil
			return
		}
		waited <- decodeResult(t, "input_wait", r)
	}()
	time.Sleep(300 * time.Millisecond)
	// What an SDK's terminateSession sends; the wait's stream stays open.
	req, _ := http.NewRequest(http.MethodDelete, srv.url, nil)
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := srv.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	select {
	case got := <-waited:
		if got["ok"] != true || got["state"] != "expired" || got["closedReason"] != "disconnected" || got["requestId"] != id {
			t.Fatalf("input_wait after the session was deleted: %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("input_wait did not return after its session was deleted")
	}
}

// `followup delete` of the chat an agent waits in, from another process:
// the wait returns the question withdrawn (cancelled, chat_deleted), and
// `followup archive` of its chat expires the next one (chat_archived).
func TestUserDeletesOrArchivesTheChat(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Claude Code")
	for _, c := range []struct{ cmd, state, reason string }{
		{"delete", "cancelled", "chat_deleted"},
		{"archive", "expired", "chat_archived"},
	} {
		id, _ := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-"+c.cmd))["requestId"].(string)
		chatID, _ := show(t, db, id)["chatId"].(string)
		waited := make(chan map[string]any, 1)
		go func() {
			r, err := agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
				Arguments: map[string]any{"requestId": id, "timeoutSeconds": 30}})
			if err != nil {
				t.Error(err)
				waited <- nil
				return
			}
			waited <- decodeResult(t, "input_wait", r)
		}()
		time.Sleep(200 * time.Millisecond)
		args := []string{c.cmd, chatID}
		if c.cmd == "delete" {
			args = append(args, "--yes") // no terminal to ask on
		}
		if r := followup(t, db, args...); r.code != 0 {
			t.Fatalf("%s: %d %s %s", c.cmd, r.code, r.stdout, r.stderr)
		}
		select {
		case got := <-waited:
			if got["state"] != c.state || got["closedReason"] != c.reason {
				t.Fatalf("input_wait after %s: %v", c.cmd, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("input_wait did not return after %s", c.cmd)
		}
	}
}

// `mcp serve --http` makes its token on first use in followup's state
// directory, private to the user, prints it in the clients' lines, and
// serves no one without it.
func TestHTTPTokenOnFirstUse(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	srv := serveHTTPBinary(t, filepath.Join(t.TempDir(), "f.db"), "XDG_STATE_HOME="+state)
	file := filepath.Join(state, "followup", "mcp-serve-token")
	b, err := os.ReadFile(file)
	if err != nil || strings.TrimSpace(string(b)) != srv.token {
		t.Fatalf("token file %s: %q, %v; printed %q", file, b, err, srv.token)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", st.Mode())
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"Claude Code","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, srv.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %s", resp.Status)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: srv.client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callTool(t, cs, "input_list", nil)
}
