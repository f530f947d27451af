package ui

import (
	"path/filepath"
	"testing"
)

// On a new chat (ctrl+o, n), questions asked and answered from the CLI in
// other chats are counted on the notice line as they happen.
func TestTerminalElsewhereCountFollowsTheCLI(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	cli(t, db, "ask", "Plan a trip")
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("Plan the trip")
	tm.Keys("C-o")
	tm.WaitFor("Chats (1 chat)")
	tm.Type("n")
	tm.WaitFor("Type a message to start", "1 question waits in another chat")
	asked := cli(t, db, "ask", "Check deployment")
	tm.WaitFor("2 questions wait in other chats")
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	cli(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`)
	tm.WaitFor("1 question waits in another chat")
}
