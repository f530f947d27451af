package ui

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/termtest"
)

// kill -9 while an MCP server's question is open: on restart nothing says
// "running" for a run no process drives — the tool row says the call was
// interrupted, the status line that ctrl+r resumes it — and the question's
// line ends in words, not a dangling colon. The card about what was typed
// says why it closed once, not again in the status line.
func TestTerminalKilledDuringAServersQuestion(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startWithEverything(t, db, 100, 30)
	tm.Type("call everything.trigger-elicitation-request")
	tm.Keys("Enter")
	tm.WaitFor("Allow everything (MCP server) to run trigger-elicitation-request?", "║ y allow once")
	time.Sleep(500 * time.Millisecond) // past the moment a key is still the composer's
	tm.Keys("y")
	tm.WaitFor("asked by everything (MCP server)", "┃ String *", "╭")
	tm.Type("Partial")
	tm.WaitFor("> Partial")
	waitDraft(t, db, "Partial")
	pid := tm.Pid()
	syscall.Kill(pid, syscall.SIGKILL)
	termtest.WaitExit(t, pid)

	again := startWithEverything(t, db, 100, 30)
	s := again.WaitFor("interrupted — followup stopped during the call", "interrupted — ctrl+r resumes it", "String: Partial · nothing was sent to everything")
	if containsAll(s, "not sent to everything:") || containsAll(s, "· running ·") {
		t.Fatalf("a dangling colon or a run said to be running:\n%s", s)
	}
	if n := strings.Count(s, "everything disconnected"); n != 1 {
		t.Fatalf("the close said %d times:\n%s", n, s)
	}
	again.Keys("Escape")
	again.WaitFor("1 interrupted run found — ctrl+r resumes it")
}

// waitDraft waits until the one open question in db has a draft holding
// value: the autosave has written it.
func waitDraft(t *testing.T, db string, value any) {
	t.Helper()
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rs, _ := svc.Pending(ctx, "")
		for _, r := range rs {
			if d, _, _ := svc.LoadDraft(ctx, r.ID, r.Revision); slices.Contains(slices.Collect(maps.Values(d.Values)), value) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no draft holds %v", value)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
