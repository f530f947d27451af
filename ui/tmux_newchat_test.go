package ui

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/termtest"
)

// Text typed in a new chat and not sent comes back after a quit: the
// screen opens on that new chat holding it, says where the other chats
// are, and sending it starts the chat.
func TestTerminalNewChatTextSurvivesAQuit(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	cli(t, db, "ask", "Check deployment")
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("Which environment")
	tm.Keys("C-o")
	tm.WaitFor("n new")
	tm.Keys("n")
	tm.WaitFor("Message the agent")
	tm.Type("unsent words here")
	tm.WaitFor("› unsent words here")
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if text, _ := svc.ComposerDraft(context.Background(), ""); text == "unsent words here" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new chat's text was never saved")
		}
	}
	pid := tm.Pid()
	tm.Keys("C-c")
	termtest.WaitExit(t, pid)

	again := startApp(t, db, 100, 30)
	again.WaitFor("› unsent words here", "Back in the new chat you were typing in — ctrl+o shows your other chats")
	again.Keys("Enter")
	again.WaitFor("unsent words here", "offline")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if cs, _ := cli(t, db, "chats")["chats"].([]any); len(cs) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("sending the text did not start a second chat")
		}
	}
}
