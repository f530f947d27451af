package mcp

import (
	"strings"
	"syscall"
	"testing"
)

// serverPid is the process id of a connected stdio server (its group's
// leader).
func serverPid(t *testing.T, m *Manager, name string) int {
	t.Helper()
	s := m.byName[name]
	s.mu.Lock()
	proc := s.proc
	s.mu.Unlock()
	if proc == nil {
		t.Fatalf("%s has no process", name)
	}
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.pid
}

// TestEverythingKilledComesBackOnTheNextCall: server-everything killed with
// SIGKILL between two echo calls is started again by the second, which
// succeeds; no process of either start outlives Close.
func TestEverythingKilledComesBackOnTheNextCall(t *testing.T) {
	m := everything(t, TypeStdio, &scriptedElicitor{})
	if res := callEverything(t, m, "echo", `{"message":"before"}`); !strings.Contains(res.Text, "before") {
		t.Fatalf("echo before the kill: %+v", res)
	}
	first := serverPid(t, m, "everything")
	st := killAndWaitFailed(t, m, first)
	if !st.RestartsOnCall || !strings.Contains(st.Reason, "closed the connection") {
		t.Fatalf("after the kill: %+v", st)
	}
	if res := callEverything(t, m, "echo", `{"message":"after"}`); res.IsError || !strings.Contains(res.Text, "after") {
		t.Fatalf("echo after the kill: %+v", res)
	}
	second := serverPid(t, m, "everything")
	st = m.Status().Servers[0]
	if second == first || st.State != StateConnected || len(st.Tools) == 0 {
		t.Fatalf("after the restart (pid %d, first %d): %+v", second, first, st)
	}
	m.Close()
	for _, pid := range []int{first, second} {
		if alive(pid) || syscall.Kill(-pid, 0) == nil {
			t.Errorf("a server-everything process of group %d outlives Close", pid)
		}
	}
}
