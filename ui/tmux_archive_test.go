package ui

import (
	"path/filepath"
	"testing"
)

// A chat archived from the CLI says so in its composer; a in the chat
// list unarchives it, with a word, and it takes messages again.
func TestTerminalArchiveAndUnarchive(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	chatID := cli(t, db, "ask", "Plan a trip")["chatId"].(string)
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("Plan the trip", "Message the agent…")
	cli(t, db, "archive", chatID)
	tm.WaitFor("This chat is archived and read-only", "archived (read-only)")
	tm.Keys("C-o")
	tm.WaitFor("a unarchive")
	tm.Type("a")
	tm.WaitFor("Unarchived “Plan a trip”", "a archive")
	tm.Keys("Escape")
	tm.WaitFor("Message the agent…", "> Shanghai")
	tm.WaitGone("read-only")
}
