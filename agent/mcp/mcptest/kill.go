package mcptest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// KillEverything kills with SIGKILL, as a crash would, the server-everything
// processes this test process started (its children whose command line runs
// the package's script), and returns their process ids. It fails the test
// when there is none.
func (p Peers) KillEverything(t testing.TB) []int {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	script := []byte(p.EverythingScript())
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var killed []int
	for _, d := range dirs {
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		if !bytes.Contains(cmd, script) || parentOf(d) != me {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err == nil && syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	if len(killed) == 0 {
		t.Fatal("no server-everything process of this test to kill")
	}
	return killed
}

// parentOf reads the parent process id from /proc/PID/stat (the field after
// the state, which follows the parenthesised command name).
func parentOf(dir string) string {
	stat, _ := os.ReadFile(filepath.Join(dir, "stat"))
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return ""
	}
	return string(fields[1])
}
