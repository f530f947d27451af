package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The chat screen started where there is no terminal (cron, a CI step,
// ssh without a tty) is a usage error that says so, and opens nothing.
func TestTheScreenWithoutATerminal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "nt.db")
	cmd := exec.Command(bin, "--db", db)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, &stdout, &stderr // /dev/null
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 2 || !strings.HasPrefix(stderr.String(), "followup: the chat screen needs a terminal; run a command instead (followup help)\n") ||
		stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the database was opened: %v", err)
	}
}
