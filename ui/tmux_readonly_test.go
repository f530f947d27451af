package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/ui/termtest"
)

// A database the screen may not write says so from the first frame — in
// the status line and in words — and typing is not met with a failed
// autosave at every pause.
func TestTerminalReadOnlyDatabaseSaysSoAtOpen(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	os.Chmod(filepath.Dir(top), 0o755) // the test's own temporary root
	os.Chmod(top, 0o755)
	dir := filepath.Join(top, "data")
	os.Mkdir(dir, 0o755)
	db := filepath.Join(dir, "f.db")
	cli(t, db, "ask", "Plan a trip")
	bin := termtest.Binary(t)
	run := bin
	if os.Geteuid() == 0 {
		// root may write any file: the screen runs as nobody, from a copy
		// of the binary it may execute.
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		run = filepath.Join(top, "followup")
		if err := os.WriteFile(run, b, 0o755); err != nil {
			t.Fatal(err)
		}
		run = "setpriv --reuid=65534 --regid=65534 --clear-groups " + run
	}
	os.Chmod(db, 0o444)
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	tm := termtest.Start(t, 110, 30, fmt.Sprintf("exec env FOLLOWUP_PROVIDER=offline TERM=xterm-256color HOME=%s XDG_STATE_HOME=%s %s --db %s",
		top, filepath.Join(top, "state"), run, db))
	tm.WaitFor("Read-only database: nothing typed is saved or sent — the file's permissions", "waiting for your answer · read-only database", "Plan the trip")
	tm.Keys("C-f") // from the question's form, which has the focus
	tm.Type("words for the composer")
	tm.WaitFor("› words for the composer")
	time.Sleep(1500 * time.Millisecond) // past the composer's autosave pause
	if s := tm.Screen(); strings.Contains(s, "not saved") || !strings.Contains(s, "Read-only database") {
		t.Fatalf("after a pause:\n%s", s)
	}
}
