package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair. Nothing ever answers on the
// master side: a terminal query written to the slave waits in vain.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// onPTY runs followup with args as the foreground job of a terminal that
// never answers, and returns all it wrote there.
func onPTY(t *testing.T, args ...string) string {
	t.Helper()
	master, slave := openPTY(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "FOLLOWUP_PROVIDER=offline")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&out, master); close(copied) }()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(4 * time.Second): // a query waits 5 s for its answer
		cmd.Process.Kill()
		<-done
		t.Errorf("%v waited on the terminal", args)
	}
	master.SetReadDeadline(time.Now().Add(time.Second))
	<-copied
	return out.String()
}

// A headless command never writes a terminal query (docs/cli.md): not the
// background colour, not the cursor position — so it never waits for an
// answer either.
func TestHeadlessCommandsNeverQueryTheTerminal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "q.db")
	for _, args := range [][]string{
		{"--help"}, {"--version"}, {"help", "ask"}, {"--db", db, "ask", "Check deployment"},
		{"--db", db, "pending", "--json"}, {"--db", db, "chats"}, {"frobnicate"},
	} {
		out := onPTY(t, args...)
		if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[6n") || strings.Contains(out, "\x1b[?") {
			t.Errorf("%v wrote a terminal query: %q", args, out[:min(len(out), 60)])
		}
		if !strings.Contains(out, "followup") && !strings.Contains(out, `"ok"`) && !strings.Contains(out, "ch_") {
			t.Errorf("%v: no output on the terminal: %q", args, out)
		}
	}
}
