package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"followup/ui/termtest"
)

// With standard output redirected to a file, the screen is drawn on the
// terminal (/dev/tty) and nothing is written into the file; a
// paste keeps its line breaks.
func TestTerminalScreenWithOutputRedirected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	tm := termtest.Start(t, 100, 30, fmt.Sprintf("env FOLLOWUP_PROVIDER=offline TERM=xterm-256color HOME=%s XDG_STATE_HOME=%s %s --db %s > %s",
		dir, filepath.Join(dir, "state"), termtest.Binary(t), filepath.Join(dir, "f.db"), out))
	tm.WaitFor("› Message the agent…", "offline · no task")
	tm.Paste("first line\rsecond line")
	tm.WaitFor("› first line", "  second line")
	if b, err := os.ReadFile(out); err != nil || len(b) != 0 {
		t.Fatalf("the file standard output went to holds %d bytes (%v), want none", len(b), err)
	}
}
