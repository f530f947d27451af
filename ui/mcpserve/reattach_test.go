package mcpserve_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/chat"
)

// A question outlives its connection: the serve process killed (kill -9)
// and the client back as a new session, the same requestKey and arguments
// give back the same question, with the user's draft or the answer
// already confirmed; an id of the earlier session says how to take it
// back. Another client (another name) asking the same gets a question of
// its own.
func TestReattachAfterKill(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Claude Code")
	drafted := callTool(t, agent.ClientSession, "input_request", tripRequest("drafted"))["requestId"].(string)
	confirmed := callTool(t, agent.ClientSession, "input_request", tripRequest("confirmed"))["requestId"].(string)
	if r := followup(t, db, "answer", confirmed, "--values-json", `{"destination":"Bern","travelers":4}`); r.code != 0 {
		t.Fatalf("answer: %s %s", r.stdout, r.stderr)
	}
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if err := svc.SaveDraft(ctx, chat.Draft{RequestID: drafted, Revision: 1, Values: map[string]any{"destination": "Genoa"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	agent.cmd.Process.Kill()
	agent.Close()

	back := connectStdio(t, db, "Claude Code")
	old := callTool(t, back.ClientSession, "input_read_answer", map[string]any{"requestId": confirmed})
	if errCode(old) != chat.CodeSessionEnded || !containsAll(old, "input_request again", `"confirmed"`) {
		t.Errorf("an id of the killed session: %v", old)
	}
	again := callTool(t, back.ClientSession, "input_request", tripRequest("drafted"))
	if again["requestId"] != drafted || again["state"] != "pending" {
		t.Errorf("the drafted question asked again: %v (want %s pending)", again, drafted)
	}
	if d, ok, err := svc.LoadDraft(ctx, drafted, 1); err != nil || !ok || d.Values["destination"] != "Genoa" {
		t.Errorf("the draft after re-attaching: %v %v %v", d, ok, err)
	}
	if pend := followup(t, db, "pending").json["requests"].([]any); len(pend) != 1 || pend[0].(map[string]any)["id"] != drafted {
		t.Errorf("pending after re-attaching: %v", pend)
	}
	if r := callTool(t, back.ClientSession, "input_request", tripRequest("confirmed")); r["requestId"] != confirmed || r["state"] != "answered" {
		t.Errorf("the confirmed question asked again: %v", r)
	}
	got := callTool(t, back.ClientSession, "input_wait", map[string]any{"requestId": confirmed, "timeoutSeconds": 1})
	if got["state"] != "answered" || canon(got["answer"].(map[string]any)["values"]) != `{"destination":"Bern","travelers":4}` {
		t.Errorf("input_wait after re-attaching: %v", got)
	}
	if ds := show(t, db, confirmed)["deliveries"].([]any); ds[0].(map[string]any)["state"] != "delivered" {
		t.Errorf("deliveries once read after re-attaching: %v", ds)
	}
	if chats := followup(t, db, "chats").json["chats"].([]any); len(chats) != 1 {
		t.Errorf("re-attaching opened another chat: %v", chats)
	}
	// Another client asks anew.
	stranger := connectStdio(t, db, "Codex")
	if r := callTool(t, stranger.ClientSession, "input_request", tripRequest("drafted")); r["requestId"] == drafted {
		t.Errorf("another client took the question: %v", r)
	}
}

// Over HTTP the token decides: the server restarted with the same token
// gives the question back; one with another token, or other arguments,
// ask anew.
func TestReattachOverHTTP(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	state := "XDG_STATE_HOME=" + t.TempDir()
	connect := func(srv *httpServer) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Title: "Claude Code", Version: "2"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: srv.client}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	first := serveHTTPBinary(t, db, state)
	id := callTool(t, connect(first), "input_request", tripRequest("k"))["requestId"].(string)
	first.cmd.Process.Kill()
	first.cmd.Wait()

	foreign := connect(serveHTTPBinary(t, db, "XDG_STATE_HOME="+t.TempDir()))
	if r := callTool(t, foreign, "input_request", tripRequest("k")); r["requestId"] == id {
		t.Errorf("a client with another token took the question: %v", r)
	}
	if r := callTool(t, foreign, "input_read_answer", map[string]any{"requestId": id}); errCode(r) != chat.CodeNotFound {
		t.Errorf("another token reads the question: %v", r)
	}
	back := connect(serveHTTPBinary(t, db, state))
	changed := tripRequest("k")
	changed["reason"] = "Another reason"
	if r := callTool(t, back, "input_request", changed); r["requestId"] == id {
		t.Errorf("other arguments took the question: %v", r)
	}
	back = connect(serveHTTPBinary(t, db, state))
	if r := callTool(t, back, "input_request", tripRequest("k")); r["requestId"] != id || r["state"] != "pending" {
		t.Errorf("the same token asking again: %v (want %s pending)", r, id)
	}
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func containsAll(m map[string]any, words ...string) bool {
	s := canon(m)
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// A screen that only watches notices a killed serve process at once: the
// kernel closes its lease file, which wakes the watch (nothing polls).
func TestWatchNoticesKilledServe(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "agent")
	id := callTool(t, agent.ClientSession, "input_request", tripRequest("k"))["requestId"].(string)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	events := svc.Subscribe(ctx)
	time.Sleep(3 * time.Second) // the watch has settled: it looks no more
	agent.cmd.Process.Kill()
	killed := time.Now()
	for {
		select {
		case e := <-events:
			if e.RequestID != id {
				continue
			}
			if v, err := svc.Request(ctx, id); err != nil || v.State != "expired" {
				t.Fatalf("the killed server's question: %v %v", v.State, err)
			}
			if d := time.Since(killed); d > time.Second {
				t.Errorf("noticed %v after the kill", d)
			}
			return
		case <-time.After(5 * time.Second):
			t.Fatal("the watch never noticed the killed server")
		}
	}
}

// followup delete says first that a confirmed answer has not been read by
// its agent, even with --yes (on standard error).
func TestDeleteWarnsOfAnUnreadAnswer(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "agent")
	id := callTool(t, agent.ClientSession, "input_request", tripRequest("k"))["requestId"].(string)
	if r := followup(t, db, "answer", id, "--values-json", `{"destination":"Bern","travelers":4}`); r.code != 0 {
		t.Fatalf("answer: %s %s", r.stdout, r.stderr)
	}
	chatID := show(t, db, id)["chatId"].(string)
	r := followup(t, db, "delete", chatID)
	if r.code != 2 || !strings.Contains(r.stderr, "the answer confirmed to “Trip” ("+id+") has not been read by its agent yet") {
		t.Errorf("delete without --yes: %d %q", r.code, r.stderr)
	}
	r = followup(t, db, "delete", chatID, "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "has not been read by its agent yet, and goes with the chat") {
		t.Errorf("delete --yes: %d %q", r.code, r.stderr)
	}
}
