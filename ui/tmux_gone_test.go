package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"followup/ui/termtest"
)

// The database file removed under a running screen: the screen says so in
// one line, and an answer is refused in words instead of being written
// into a file no one will read again.
func TestTerminalDatabaseRemovedUnderTheScreen(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	db := filepath.Join(top, "f.db")
	cli(t, db, "ask", "Check deployment")
	tm := termtest.Start(t, 120, 30, fmt.Sprintf("exec env FOLLOWUP_PROVIDER=offline TERM=xterm-256color HOME=%s XDG_STATE_HOME=%s %s --db %s",
		top, filepath.Join(top, "state"), termtest.Binary(t), db))
	tm.WaitFor("waiting for your answer", "production")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	tm.WaitFor("the file was removed after followup opened it: restart followup", "read-only database")
	time.Sleep(time.Second) // keys apart from the reload that said so
	tm.Keys("Enter")
	tm.WaitFor("Review before sending")
	time.Sleep(time.Second) // apart from the first: not one burst
	tm.Keys("Enter")
	tm.WaitFor("cannot be written", "DATABASE_UNAVAILABLE")
}
