package mcpserve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An agent asks through `followup mcp serve`; the user answers from
// another process (`followup answer`); input_wait returns exactly what the
// user confirmed, in the shape of docs/behaviour.md, and show records that the
// agent has read it.
func TestAnswerFromAnotherProcess(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Claude Code")
	res := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-1"))
	id, _ := res["requestId"].(string)
	if id == "" || res["state"] != "pending" {
		t.Fatalf("input_request: %v", res)
	}
	// The user's side sees the question, asked by the client.
	pend := followup(t, db, "pending")
	reqs, _ := pend.json["requests"].([]any)
	if len(reqs) != 1 || canon(reqs[0].(map[string]any)["owner"]) != `{"kind":"mcp_client","name":"Claude Code"}` {
		t.Fatalf("pending: %s", pend.stdout)
	}

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
	ans := followup(t, db, "answer", id, "--values-json", `{"destination":"Porto","travelers":3}`)
	if ans.code != 0 {
		t.Fatalf("answer: %d %s %s", ans.code, ans.stdout, ans.stderr)
	}
	answered := time.Now()
	var got map[string]any
	select {
	case got = <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("input_wait did not return after the answer")
	}
	if d := time.Since(answered); d > 2*time.Second {
		t.Errorf("input_wait returned %v after the answer", d)
	}
	want := `{"origins":{"destination":"response","travelers":"response"},"values":{"destination":"Porto","travelers":3}}`
	if got["state"] != "answered" || canon(got["answer"]) != want {
		t.Fatalf("input_wait: %v", got)
	}
	result := got["result"].(map[string]any)
	if result["status"] != "input_received" || result["requestId"] != nil || result["values"] != nil ||
		got["requestId"] != id || canon(result["context"]) != `{"booking":7}` {
		t.Errorf("the input_wait result: %v", result)
	}
	req := show(t, db, id)
	if ds := req["deliveries"].([]any); len(ds) != 1 || ds[0].(map[string]any)["state"] != "delivered" {
		t.Errorf("deliveries after the agent read the answer: %v", req["deliveries"])
	}
	// input_read_answer says the same.
	if r := callTool(t, agent.ClientSession, "input_read_answer", map[string]any{"requestId": id}); canon(r["answer"]) != want {
		t.Errorf("input_read_answer: %v", r)
	}
}

// A session that ends leaves its chat and answers readable; what it left
// pending expires disconnected at once, and cannot be answered into the
// void.
func TestSessionClosedByItsClient(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Codex")
	done := callTool(t, agent.ClientSession, "input_request", tripRequest("done"))["requestId"].(string)
	open := callTool(t, agent.ClientSession, "input_request", tripRequest("open"))["requestId"].(string)
	if r := followup(t, db, "answer", done, "--values-json", `{"destination":"Lyon","travelers":2}`); r.code != 0 {
		t.Fatalf("answer: %s %s", r.stdout, r.stderr)
	}
	callTool(t, agent.ClientSession, "input_read_answer", map[string]any{"requestId": done})
	agent.Close()
	waitUntil(t, time.Second, "the open request expires", func() bool {
		return show(t, db, open)["state"] == "expired"
	})
	if req := show(t, db, open); req["closedReason"] != "disconnected" {
		t.Errorf("closed reason %v", req["closedReason"])
	}
	r := followup(t, db, "answer", open, "--values-json", `{"destination":"Lyon","travelers":2}`)
	if r.code != 1 || r.json["error"].(map[string]any)["code"] != "TARGET_CLOSED" {
		t.Errorf("answer after the session ended: %d %s", r.code, r.stdout)
	}
	if req := show(t, db, done); req["state"] != "answered" || req["answer"] == nil {
		t.Errorf("the answered request after the end: %v", req)
	}
	chats := followup(t, db, "chats")
	cs := chats.json["chats"].([]any)
	if len(cs) != 1 {
		t.Fatalf("chats: %s", chats.stdout)
	}
	in := followup(t, db, "inspect", cs[0].(map[string]any)["id"].(string))
	if serve, _ := in.json["chat"].(map[string]any)["serve"].(map[string]any); serve["client"] != "Codex" || serve["connected"] != false {
		t.Errorf("inspect: %s", in.stdout)
	}
}

// A serve chat takes answers, not messages.
func TestServeChatRefusesMessages(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Claude Code")
	id := callTool(t, agent.ClientSession, "input_request", tripRequest("k"))["requestId"].(string)
	chatID := show(t, db, id)["chatId"].(string)
	r := followup(t, db, "ask", "--chat", chatID, "hello")
	if r.code != 1 || r.json["error"].(map[string]any)["code"] != "INVALID_ARGUMENT" {
		t.Errorf("ask in a serve chat: %d %s", r.code, r.stdout)
	}
	// Cancel still works, and the agent learns of it.
	if r := followup(t, db, "cancel", id); r.code != 0 {
		t.Fatalf("cancel: %s %s", r.stdout, r.stderr)
	}
	w := callTool(t, agent.ClientSession, "input_wait", map[string]any{"requestId": id, "timeoutSeconds": 5})
	if w["state"] != "cancelled" || w["result"].(map[string]any)["status"] != "input_cancelled" {
		t.Errorf("input_wait after the user cancelled: %v", w)
	}
}

// A client that stops the server with SIGTERM (as Claude Code does on
// exit) ends the session at once, even with an input_wait in flight.
func TestServerStoppedBySignal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "Claude Code")
	id := callTool(t, agent.ClientSession, "input_request", tripRequest("k"))["requestId"].(string)
	go agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
		Arguments: map[string]any{"requestId": id, "timeoutSeconds": 50}})
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if err := agent.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 2*time.Second, "the server exits", func() bool {
		return syscall.Kill(agent.cmd.Process.Pid, 0) != nil || zombie(agent.cmd.Process.Pid)
	})
	t.Logf("the server exited %v after SIGTERM", time.Since(start))
	if req := show(t, db, id); req["state"] != "expired" || req["closedReason"] != "disconnected" {
		t.Errorf("after SIGTERM the request is %v %v", req["state"], req["closedReason"])
	}
	sess := followup(t, db, "inspect", show(t, db, id)["chatId"].(string)).json["chat"].(map[string]any)["serve"]
	if sess.(map[string]any)["connected"] != false {
		t.Errorf("the session after SIGTERM: %v", sess)
	}
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}
