package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/termtest"
)

// startApp runs the chat screen on db in a w×h terminal as the pane's own
// process, so a signal sent to the pane's pid reaches followup itself.
func startApp(t *testing.T, db string, w, h int) *termtest.Term {
	t.Helper()
	bin := termtest.Binary(t)
	return termtest.Start(t, w, h, fmt.Sprintf("exec env FOLLOWUP_PROVIDER=offline TERM=xterm-256color %s --db %s", bin, db))
}

// typeDrafts types into the trip form's destination and then into the
// composer, and returns once the last keys are on screen.
func typeDrafts(tm *termtest.Term) {
	tm.WaitFor("> Shanghai", "enter continue") // the form took the focus
	tm.Keys("C-u")
	tm.Type("Oslo")
	tm.WaitFor("> Oslo")
	tm.Keys("C-f")
	tm.Type("half a message")
	tm.WaitFor("› half a message")
	tm.Type(" here")
	tm.WaitFor("› half a message here")
}

// SIGHUP (the terminal window closed) and SIGTERM, sent an instant after
// the last key — long before the autosave — save both drafts on the way
// out, as ctrl+c does; restarted, the screen shows them.
func TestTerminalSignalsSaveEveryDraft(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		end  func(tm *termtest.Term)
	}{
		{"SIGHUP", func(tm *termtest.Term) { syscall.Kill(tm.Pid(), syscall.SIGHUP) }},
		{"SIGTERM", func(tm *termtest.Term) { syscall.Kill(tm.Pid(), syscall.SIGTERM) }},
		{"ctrl+c", func(tm *termtest.Term) { tm.Keys("C-c") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := filepath.Join(t.TempDir(), "f.db")
			cli(t, db, "ask", "Plan a trip")
			tm := startApp(t, db, 100, 30)
			typeDrafts(tm)
			pid := tm.Pid()
			tc.end(tm)
			termtest.WaitExit(t, pid)
			again := startApp(t, db, 100, 30)
			again.WaitFor("› half a message here", "> Oslo")
		})
	}
}

// kill -9 loses at most what was typed since the last autosave: once the
// pause has passed, the drafts are back on restart.
func TestTerminalDraftsSurviveKill9(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Plan a trip")
	chatID := asked["chatId"].(string)
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	tm := startApp(t, db, 100, 30)
	typeDrafts(tm)
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		text, _ := svc.ComposerDraft(context.Background(), chatID)
		d, _, _ := svc.LoadDraft(context.Background(), rq, 1)
		if text == "half a message here" && d.Values["destination"] == "Oslo" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never autosaved: composer %q, form %v", text, d.Values)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pid := tm.Pid()
	syscall.Kill(pid, syscall.SIGKILL)
	termtest.WaitExit(t, pid)
	again := startApp(t, db, 100, 30)
	again.WaitFor("› half a message here", "> Oslo")
}

// The open chat deleted from the CLI: the screen says so, moves to a new
// chat with what was typed, and sending it makes that chat.
func TestTerminalChatDeletedFromTheCLI(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Check deployment")
	chatID := asked["chatId"].(string)
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	cli(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`)
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("Deploying to staging")
	tm.Type("and the database too")
	tm.WaitFor("› and the database too")
	cli(t, db, "delete", chatID, "--yes")
	tm.WaitFor("deleted elsewhere", "› and the database too")
	tm.WaitGone("Deploying to staging")
	tm.Keys("Enter")
	deadline := time.Now().Add(10 * time.Second)
	for {
		chats := cli(t, db, "chats")["chats"].([]any)
		if len(chats) == 1 && chats[0].(map[string]any)["title"] == "and the database too" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chats after sending: %v", chats)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
