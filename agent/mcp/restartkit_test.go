package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Helpers of the restart tests: the test binary's fake server, counting
// its starts in a file.

// restartFake is a started, connected manager of one fake server "f" in the
// given modes, with the back-off base given, and the file its starts are
// counted in.
func restartFake(t *testing.T, modes string, backoff time.Duration, env map[string]string) (*Manager, string) {
	t.Helper()
	starts := filepath.Join(t.TempDir(), "starts")
	all := map[string]string{"FAKE_STARTS_FILE": starts}
	for k, v := range env {
		all[k] = v
	}
	m := newFakeManager(t, nil, fakeServer("f", modes, all))
	m.backoff = backoff
	waitAll(t, m)
	return m, starts
}

// startsOf counts the starts the fake recorded.
func startsOf(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// callF calls the fake's tool and returns the result's text.
func callF(m *Manager, tool string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := m.Call(ctx, CallRequest{Server: "f", Tool: tool})
	return res.Text, err
}

// pidOfF asks the fake for its process id.
func pidOfF(t *testing.T, m *Manager) int {
	t.Helper()
	text, err := callF(m, "pid")
	if err != nil {
		t.Fatalf("pid: %v", err)
	}
	var pid int
	if _, err := fmt.Sscanf(text, "pid %d", &pid); err != nil {
		t.Fatalf("pid answered %q", text)
	}
	return pid
}

// killAndWaitFailed kills pid as a crash would and waits until the manager
// has seen its server's connection end.
func killAndWaitFailed(t *testing.T, m *Manager, pid int) ServerStatus {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	return waitServer(t, m, func(s ServerStatus) bool { return s.State == StateFailed })
}

// waitServer polls the first server's status until ok.
func waitServer(t *testing.T, m *Manager, ok func(ServerStatus) bool) ServerStatus {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		st := m.Status().Servers[0]
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("server status never came: %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readPidFileText waits for a file a fake server writes.
func readPidFileText(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
