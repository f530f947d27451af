package mcpserve_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/chat"
	"followup/ui/termtest"
)

// openScreen is the followup chat screen in a terminal of its own, open
// on the database an agent asks through.
func openScreen(t *testing.T, db string) *termtest.Term {
	t.Helper()
	return termtest.Start(t, 100, 32, fmt.Sprintf("exec env TERM=xterm-256color %s --db %s", binary(t), db))
}

// waitLoop calls input_wait until the request is no longer pending, as an
// agent does, and hands over that result.
func waitLoop(t *testing.T, cs *mcp.ClientSession, id string) <-chan map[string]any {
	out := make(chan map[string]any, 1)
	go func() {
		for {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
				Arguments: map[string]any{"requestId": id, "timeoutSeconds": 2}})
			if err != nil {
				t.Error(err)
				out <- nil
				return
			}
			if m := decodeResult(t, "input_wait", r); m["state"] != "pending" {
				out <- m
				return
			}
		}
	}()
	return out
}

func receive(t *testing.T, ch <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(15 * time.Second):
		t.Fatal("input_wait never returned the answer")
		return nil
	}
}

// The question of an agent appears in the chat screen open in another
// terminal, the user answers it there with the form's review, and the
// agent receives exactly what was confirmed. Killing the screen mid-draft
// loses nothing: the draft is back when it reopens, and the agent's wait
// goes on meanwhile.
func TestAnswerInTheChatScreen(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	scr := openScreen(t, db)
	scr.WaitFor("Type a message to start")
	agent := connectStdio(t, db, "Claude Code")

	id := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-1"))["requestId"].(string)
	asked := time.Now()
	scr.WaitFor("To book the trip", "Destination", "Lyon")
	// How soon is a budget for bench/, not a timed assertion here.
	t.Logf("the question appeared in the screen %v after input_request", time.Since(asked))
	waited := waitLoop(t, agent.ClientSession, id)
	scr.WaitFor("tab next field")
	scr.Keys("Enter") // keeps the suggested destination
	scr.Type("3")
	scr.Keys("Enter")
	scr.WaitFor("Review before sending", "Destination: Lyon", "Travelers: 3")
	scr.Keys("Enter")
	got := receive(t, waited)
	if got["state"] != "answered" || canon(got["answer"].(map[string]any)["values"]) != `{"destination":"Lyon","travelers":3}` {
		t.Fatalf("the agent received %v", got)
	}
	scr.WaitFor("delivered")

	// A second question, killed mid-draft.
	id2 := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-2"))["requestId"].(string)
	waited = waitLoop(t, agent.ClientSession, id2)
	scr.WaitFor("To book the trip", "Lyon", "tab next field")
	scr.Keys("Enter")
	scr.Type("11")
	waitForDraft(t, db, id2, "11")
	scr.Kill()
	if show(t, db, id2)["state"] != "pending" {
		t.Fatal("the question did not survive the screen")
	}
	again := openScreen(t, db)
	again.WaitFor("To book the trip", "11", "tab next field")
	// On through the fields (the form may come back on the first) to the
	// review; a form that just appeared ignores keys for a moment.
	time.Sleep(700 * time.Millisecond)
	for i := 0; i < 4; i++ {
		again.Keys("Enter")
		time.Sleep(700 * time.Millisecond)
		if strings.Contains(again.Screen(), "Review before sending") {
			break
		}
	}
	again.WaitFor("Review before sending", "Destination: Lyon", "Travelers: 11")
	again.Keys("Enter")
	got = receive(t, waited)
	if canon(got["answer"].(map[string]any)["values"]) != `{"destination":"Lyon","travelers":11}` {
		t.Fatalf("after the screen was killed the agent received %v", got)
	}
}

// waitForDraft waits until the screen has autosaved a draft of id holding
// text.
func waitForDraft(t *testing.T, db, id, text string) {
	t.Helper()
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	waitUntil(t, 10*time.Second, "the draft is saved", func() bool {
		r, err := svc.Request(ctx, id)
		if err != nil {
			return false
		}
		d, ok, _ := svc.LoadDraft(ctx, id, r.Revision)
		return ok && strings.Contains(fmt.Sprint(d.Values), text)
	})
}

// Typed by hand in a terminal, `followup mcp serve` says what it waits
// for, and ctrl+c ends it.
func TestServeByHandSaysWhatItIs(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	s := termtest.Start(t, 200, 10, fmt.Sprintf("%s --db %s mcp serve; echo exited $?; sleep 30", binary(t), db))
	s.WaitFor("speaking MCP on stdin and stdout", "claude mcp add followup -- followup mcp serve")
	s.Keys("C-c")
	s.WaitFor("exited 0")
}
