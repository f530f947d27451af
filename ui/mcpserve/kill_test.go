package mcpserve_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Either side may die (issue 16 item 4). The serve process killed at a
// random instant: what the user confirmed stays answered, and whatever its
// session left pending has expired (disconnected) for the very next
// command — nobody can answer it into the void.
func TestKillServeAnywhere(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 2))
	t.Logf("seed %d", seed)
	for round := range 6 {
		db := filepath.Join(t.TempDir(), fmt.Sprintf("kill-%d.db", round))
		agent := connectStdio(t, db, "agent")
		answered := callTool(t, agent.ClientSession, "input_request", tripRequest("answered"))["requestId"].(string)
		if r := followup(t, db, "answer", answered, "--values-json", `{"destination":"Bern","travelers":4}`); r.code != 0 {
			t.Fatalf("answer: %s %s", r.stdout, r.stderr)
		}
		// Calls in flight when the process dies: more requests, and a wait.
		go agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
			Arguments: map[string]any{"requestId": answered, "timeoutSeconds": 50}})
		for i := range 3 {
			go agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_request",
				Arguments: tripRequest(fmt.Sprintf("late-%d", i))})
		}
		time.Sleep(time.Duration(rng.Int64N(int64(40 * time.Millisecond))))
		agent.cmd.Process.Kill()
		killed := time.Now()
		agent.Close() // the transport reaps the dead process

		// The next command sees the session gone.
		pend := followup(t, db, "pending")
		if reqs := pend.json["requests"].([]any); len(reqs) != 0 {
			t.Fatalf("round %d: pending after the serve process died: %s", round, pend.stdout)
		}
		if d := time.Since(killed); d > time.Second {
			t.Errorf("round %d: took %v to see the dead session", round, d)
		}
		chats := followup(t, db, "chats").json["chats"].([]any)
		in := followup(t, db, "inspect", chats[0].(map[string]any)["id"].(string))
		for _, r := range in.json["requests"].([]any) {
			req := r.(map[string]any)
			switch {
			case req["id"] == answered:
				want := `{"origins":{"destination":"response","travelers":"response"},"values":{"destination":"Bern","travelers":4}}`
				if req["state"] != "answered" || canon(map[string]any{"values": req["answer"].(map[string]any)["values"],
					"origins": req["answer"].(map[string]any)["origins"]}) != want {
					t.Errorf("round %d: the confirmed answer after the kill: %v", round, req)
				}
			case req["state"] != "expired" || req["closedReason"] != "disconnected":
				t.Errorf("round %d: a request of the dead session is %v %v", round, req["state"], req["closedReason"])
			}
		}
		if serve := in.json["chat"].(map[string]any)["serve"].(map[string]any); serve["connected"] != false {
			t.Errorf("round %d: the chat still reads as connected: %v", round, serve)
		}
	}
}

// The answering side killed at a random instant: an answer is recorded
// whole or not at all; the agent's input_wait keeps waiting meanwhile and
// returns exactly what was confirmed.
func TestKillAnswererAnywhere(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	agent := connectStdio(t, db, "agent")
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 3))
	t.Logf("seed %d", seed)

	// How long an undisturbed answer takes bounds the kill delays.
	probe := callTool(t, agent.ClientSession, "input_request", tripRequest("probe"))["requestId"].(string)
	start := time.Now()
	followup(t, db, "answer", probe, "--values-json", `{"destination":"Oslo","travelers":1}`)
	took := time.Since(start)

	kills, lost := 0, 0
	for round := range 8 {
		id := callTool(t, agent.ClientSession, "input_request", tripRequest(fmt.Sprintf("r%d", round)))["requestId"].(string)
		values := fmt.Sprintf(`{"destination":"Town %d","travelers":%d}`, round, round+1)
		waited := make(chan map[string]any, 1)
		go func() {
			for {
				r, err := agent.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
					Arguments: map[string]any{"requestId": id, "timeoutSeconds": 1}})
				if err != nil {
					t.Error(err)
					waited <- nil
					return
				}
				if out := decodeResult(t, "input_wait", r); out["state"] != "pending" {
					waited <- out
					return
				}
			}
		}()
		cmd := exec.Command(binary(t), "--db", db, "answer", id, "--values-json", values)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took))))
		cmd.Process.Kill()
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			kills++
		}
		req := show(t, db, id)
		switch req["state"] {
		case "answered":
		case "pending":
			lost++
			// Nothing was recorded: the user answers again.
			if r := followup(t, db, "answer", id, "--values-json", values); r.code != 0 {
				t.Fatalf("round %d: answer again: %s %s", round, r.stdout, r.stderr)
			}
		default:
			t.Fatalf("round %d: after the kill the request is %v", round, req["state"])
		}
		var got map[string]any
		select {
		case got = <-waited:
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: input_wait never returned the answer", round)
		}
		if got["state"] != "answered" || canon(got["answer"].(map[string]any)["values"]) != canon(jsonValue(t, values)) {
			t.Errorf("round %d: input_wait %v, want %s", round, got, values)
		}
		if stored := show(t, db, id)["answer"].(map[string]any)["values"]; canon(stored) != canon(jsonValue(t, values)) {
			t.Errorf("round %d: stored answer %v", round, stored)
		}
	}
	t.Logf("%d answers killed at random instants, %d before they were recorded (an answer takes %v)", kills, lost, took)
}
