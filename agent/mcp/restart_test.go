package mcp

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// restart.go's rules on the test binary's fake server (restartkit_test.go):
// a call after a crash starts the server again, once, with back-off.

// TestCallAfterAKillStartsTheServerAgain: a server killed between calls is
// failed with the reason, its tools stay for the model, and the next call
// starts it again — handshake and tool list read anew — and succeeds on the
// new process.
func TestCallAfterAKillStartsTheServerAgain(t *testing.T) {
	m, starts := restartFake(t, "", time.Minute, nil)
	first := pidOfF(t, m)
	st := killAndWaitFailed(t, m, first)
	if !st.RestartsOnCall || !strings.Contains(st.Reason, "signal: killed") || len(st.Tools) != 0 {
		t.Fatalf("status after the kill: %+v", st)
	}
	if _, ok := m.Lookup(ToolName("f", "pid")); !ok {
		t.Fatalf("the killed server's tools are gone from the model's list: %+v", m.Tools())
	}
	second := pidOfF(t, m)
	if second == first || alive(first) {
		t.Fatalf("the call after the kill went to %d (first %d, alive %v)", second, first, alive(first))
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("%d starts, want 2", n)
	}
	if st := m.Status().Servers[0]; st.State != StateConnected || st.RestartsOnCall || len(st.Tools) != 6 || st.Reason != "" {
		t.Fatalf("status after the restart: %+v", st)
	}
	// The back-off starts over with a call that had its attempt: a second
	// kill within it is not started again at once.
	killAndWaitFailed(t, m, second)
	if _, err := callF(m, "pid"); err == nil || !strings.Contains(err.Error(), "a call starts it again in") {
		t.Fatalf("a call within the back-off: %v", err)
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("%d starts after a call within the back-off, want 2", n)
	}
}

// TestCallInFlightWhenKilledIsNotMadeAgain: the call the server was busy
// with when it died ends as before (in words, not made again); only the
// next call starts the server again.
func TestCallInFlightWhenKilledIsNotMadeAgain(t *testing.T) {
	hang := filepath.Join(t.TempDir(), "hang")
	m, starts := restartFake(t, "", time.Minute, map[string]string{"FAKE_HANG_FILE": hang})
	pid := pidOfF(t, m)
	ended := make(chan error, 1)
	go func() {
		_, err := callF(m, "hang")
		ended <- err
	}()
	readPidFileText(t, hang)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := <-ended
	var gone *ConnectionEndedError
	if !errors.As(err, &gone) || !strings.Contains(err.Error(), "f stopped (killed by a signal) during the call") {
		t.Fatalf("the call in flight ended with %v", err)
	}
	if n := startsOf(t, starts); n != 1 {
		t.Fatalf("the call in flight started the server again (%d starts)", n)
	}
	if st := m.Status().Servers[0]; st.State != StateFailed {
		t.Fatalf("after the call in flight: %+v", st)
	}
	if got := pidOfF(t, m); got == pid {
		t.Fatal("the next call went to the killed process")
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("%d starts, want 2", n)
	}
}

// TestRestartThatFailsIsNotLooped: a server that cannot start again stays
// failed with its reason; each call makes at most one attempt, and calls
// within the back-off (which doubles) make none. Restart ignores the
// back-off.
func TestRestartThatFailsIsNotLooped(t *testing.T) {
	const base = 300 * time.Millisecond
	m, starts := restartFake(t, "fail-after-first", base, nil)
	killAndWaitFailed(t, m, pidOfF(t, m))
	_, err := callF(m, "pid")
	if err == nil || !strings.Contains(err.Error(), "MCP server f could not be started again: cannot connect") {
		t.Fatalf("the call that started it again: %v", err)
	}
	st := m.Status().Servers[0]
	if st.State != StateFailed || !strings.Contains(st.Reason, "cannot connect") || !st.RestartsOnCall {
		t.Fatalf("status after a failed restart: %+v", st)
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("%d starts after one call, want 2", n)
	}
	if _, err := callF(m, "pid"); err == nil || !strings.Contains(err.Error(), "cannot connect") || !strings.Contains(err.Error(), "a call starts it again in") {
		t.Fatalf("a call within the back-off: %v", err)
	}
	if n := startsOf(t, starts); n != 2 {
		t.Fatalf("a call within the back-off started the server (%d starts)", n)
	}
	time.Sleep(base + 50*time.Millisecond)
	if _, err := callF(m, "pid"); err == nil || !strings.Contains(err.Error(), "could not be started again") {
		t.Fatalf("a call after the back-off: %v", err)
	}
	if n := startsOf(t, starts); n != 3 {
		t.Fatalf("%d starts after the back-off, want 3", n)
	}
	// The back-off doubled: base later is still too soon.
	time.Sleep(base + 50*time.Millisecond)
	if _, err := callF(m, "pid"); err == nil || !strings.Contains(err.Error(), "a call starts it again in") {
		t.Fatalf("a call within the doubled back-off: %v", err)
	}
	if err := m.Restart("f"); err != nil {
		t.Fatal(err)
	}
	waitServer(t, m, func(s ServerStatus) bool { return s.State == StateFailed })
	if n := startsOf(t, starts); n != 4 {
		t.Fatalf("%d starts after Restart, want 4", n)
	}
}

// TestServerThatNeverConnectedIsRestartedOnlyByTheUser: a server that
// failed its first start is a configuration to fix — calls do not start it
// again — and Restart brings it up.
func TestServerThatNeverConnectedIsRestartedOnlyByTheUser(t *testing.T) {
	m, starts := restartFake(t, "fail-first", time.Millisecond, nil)
	st := m.Status().Servers[0]
	if st.State != StateFailed || st.RestartsOnCall {
		t.Fatalf("first start: %+v", st)
	}
	if !strings.Contains(st.Reason, "cannot connect: the server exited during the handshake (its log may say why)") {
		t.Errorf("the reason of a server that exited during the handshake: %q", st.Reason)
	}
	if _, err := callF(m, "pid"); err == nil || !strings.Contains(err.Error(), "MCP server f is not connected: cannot connect") {
		t.Fatalf("a call to a server that never connected: %v", err)
	}
	if n := startsOf(t, starts); n != 1 {
		t.Fatalf("a call started a server that never connected (%d starts)", n)
	}
	if err := m.Restart("f"); err != nil {
		t.Fatal(err)
	}
	if st := m.Status().Servers[0]; st.State != StateConnecting {
		t.Fatalf("right after Restart: %+v", st)
	}
	waitAll(t, m)
	if st := m.Status().Servers[0]; st.State != StateConnected || len(st.Tools) != 6 {
		t.Fatalf("after Restart: %+v", st)
	}
	pidOfF(t, m)
	if err := m.Restart("f"); err != nil || startsOf(t, starts) != 2 {
		t.Fatalf("Restart of a connected server: %v, %d starts", err, startsOf(t, starts))
	}
	if err := m.Restart("nobody"); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("Restart of an unknown server: %v", err)
	}
}

// TestConcurrentCallsDuringARestartStartItOnce: calls made together after a
// crash start one new process between them, and all succeed on it.
func TestConcurrentCallsDuringARestartStartItOnce(t *testing.T) {
	m, starts := restartFake(t, "", time.Minute, nil)
	killAndWaitFailed(t, m, pidOfF(t, m))
	const n = 8
	var wg sync.WaitGroup
	texts := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts[i], errs[i] = callF(m, "pid")
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || texts[i] != texts[0] {
			t.Fatalf("call %d: %q, %v (call 0: %q)", i, texts[i], errs[i], texts[0])
		}
	}
	if got := startsOf(t, starts); got != 2 {
		t.Fatalf("%d starts, want 2", got)
	}
}

// TestCloseDuringARestart: closing while a restart connects ends it, and
// nothing starts afterwards.
func TestCloseDuringARestart(t *testing.T) {
	m, starts := restartFake(t, "", time.Minute, nil)
	killAndWaitFailed(t, m, pidOfF(t, m))
	if err := m.Restart("f"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if _, err := callF(m, "pid"); err == nil || !errors.Is(err, errClosed) {
		t.Fatalf("a call after Close: %v", err)
	}
	if err := m.Restart("f"); err == nil {
		t.Fatal("Restart after Close started the server")
	}
	if n := startsOf(t, starts); n > 2 {
		t.Fatalf("%d starts", n)
	}
}
