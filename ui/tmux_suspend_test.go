package ui

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/ui/termtest"
)

// ctrl+z, and SIGTSTP from elsewhere, give the terminal back to the shell
// (no alternate screen, the cursor shown, input cooked) and stop the
// screen as a job; fg brings it back, drawn anew, with what was typed.
func TestTerminalSuspendsAndComesBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tm := termtest.Start(t, 100, 30, "bash --norc --noprofile -i")
	tm.WaitFor("bash-")
	tm.Type(fmt.Sprintf("PS1='ready> '; env FOLLOWUP_PROVIDER=offline TERM=xterm-256color HOME=%s XDG_STATE_HOME=%s %s --db %s",
		dir, filepath.Join(dir, "state"), termtest.Binary(t), filepath.Join(dir, "f.db")))
	tm.Keys("Enter")
	tm.WaitFor("› Message the agent…")
	tm.TypeSlowly("half a thought", 20*time.Millisecond)
	tm.WaitFor("› half a thought")
	given := func(how string) {
		t.Helper()
		s := tm.WaitFor("Stopped", "ready>")
		if alt, cursor := tm.Modes(); alt || !cursor {
			t.Fatalf("%s: the shell got the terminal with the alternate screen %v, the cursor shown %v:\n%s", how, alt, cursor, s)
		}
		tm.Type("stty -a | grep -c ' icanon'")
		tm.Keys("Enter")
		tm.WaitFor("\n1\n")
		tm.Type("fg")
		tm.Keys("Enter")
		tm.WaitFor("› half a thought")
		if alt, cursor := tm.Modes(); !alt || cursor {
			t.Fatalf("%s: after fg the screen did not take the terminal again", how)
		}
	}
	tm.Keys("C-z")
	given("ctrl+z")
	pid := screenPid(t, tm)
	if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	given("SIGTSTP")
	tm.Type(" and more")
	tm.WaitFor("› half a thought and more")
}

// screenPid is the pid of the screen running in the pane's shell.
func screenPid(t *testing.T, tm *termtest.Term) int {
	t.Helper()
	out, err := exec.Command("pgrep", "-P", strconv.Itoa(tm.Pid())).Output()
	if err != nil {
		t.Fatalf("pgrep: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		t.Fatal("no process runs in the pane's shell")
	}
	pid, _ := strconv.Atoi(f[len(f)-1])
	return pid
}
