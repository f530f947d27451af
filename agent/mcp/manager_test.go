package mcp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
)

// TestStatesAndCallsThatCannotBeMade: Start returns before anything connects; a disabled
// server stays disabled, a server that cannot start fails with its reason, and calls to
// them (or to no such server) are errors naming why.
func TestStatesAndCallsThatCannotBeMade(t *testing.T) {
	silent := fakeServer("silent", "ignore-discover", nil)
	off := fakeServer("off", "", nil)
	off.Disabled = true
	gone := ServerConfig{Name: "gone", Type: TypeStdio, Command: "/nonexistent/server", Shown: "/nonexistent/server", Timeout: time.Second}
	m := New(Config{Path: "mcp.json", Servers: []ServerConfig{gone, off, silent}, Problems: []Problem{{File: "mcp.json", Pointer: "/mcpServers/x", Reason: "bad"}}},
		Options{LogDir: t.TempDir()})
	defer m.Close()
	m.Start()
	st := m.Status()
	if got := st.Servers[2].State; got != StateConnecting {
		t.Errorf("right after Start silent is %s", got)
	}
	if got := st.Servers[1].State; got != StateDisabled {
		t.Errorf("off is %s", got)
	}
	if len(st.Problems) != 1 || st.Problems[0] != "mcp.json: /mcpServers/x: bad" || st.Config != "mcp.json" {
		t.Errorf("status %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := m.Call(ctx, CallRequest{Server: "gone", Tool: "x"})
	if err == nil || !strings.Contains(err.Error(), "not connected") || !strings.Contains(err.Error(), "/nonexistent/server") {
		t.Errorf("call to gone: %v", err)
	}
	if st := m.Status().Servers[0]; st.State != StateFailed || !strings.Contains(st.Reason, "/nonexistent/server") {
		t.Errorf("gone %+v", st)
	}
	if _, err := m.Call(ctx, CallRequest{Server: "off", Tool: "x"}); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("call to off: %v", err)
	}
	if _, err := m.Call(ctx, CallRequest{Server: "nobody", Tool: "x"}); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("call to nobody: %v", err)
	}
	if got, _ := m.Status().Connected(); got != 0 {
		t.Errorf("%d connected", got)
	}
}

// TestCloseWhileConnecting: closing gives up a handshake in progress at once, and its
// process is gone when Close returns.
func TestCloseWhileConnecting(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	silent := fakeServer("silent", "ignore-discover", map[string]string{"FAKE_PID_FILE": pidFile})
	silent.Timeout = time.Minute
	m := New(Config{Servers: []ServerConfig{silent}}, Options{LogDir: t.TempDir()})
	m.Start()
	pid := readPid(t, pidFile)
	start := time.Now()
	m.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Close took %s while connecting", took)
	}
	if alive(pid) {
		t.Errorf("the server %d outlives Close", pid)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Errorf("Wait after Close: %v", err)
	}
}

// TestCloseThreeEverythingServers: followup quits well under a second with three stdio
// servers that do not exit when their stdin closes.
// TestCloseNeverStarted: closing a manager that never started returns at once and
// starts nothing afterwards.
func TestCloseNeverStarted(t *testing.T) {
	m := New(Config{Servers: []ServerConfig{fakeServer("f", "", nil)}}, Options{LogDir: t.TempDir()})
	start := time.Now()
	m.Close()
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("Close took %s", took)
	}
	m.Start()
	if _, err := m.Call(context.Background(), CallRequest{Server: "f", Tool: "which"}); err == nil {
		t.Error("a call went through after Close")
	}
}

func TestCloseThreeEverythingServers(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	var servers []ServerConfig
	for _, name := range []string{"a", "b", "c"} {
		servers = append(servers, ServerConfig{Name: name, Type: TypeStdio, Command: command, Args: args, Shown: "everything", Timeout: 20 * time.Second})
	}
	m := New(Config{Servers: servers}, Options{LogDir: t.TempDir()})
	waitAll(t, m)
	if n, _ := m.Status().Connected(); n != 3 {
		t.Fatalf("%d connected: %+v", n, m.Status())
	}
	start := time.Now()
	m.Close()
	took := time.Since(start)
	t.Logf("closed three server-everything processes in %s", took)
	// About 0.3 s here; the bound is generous for a loaded CI machine, and still far
	// below what the SDK's default (5 s per server) would take.
	if took > 1500*time.Millisecond {
		t.Errorf("Close took %s", took)
	}
}

// TestToolNameClashIsRefused: a server naming a tool so that its model name is another
// server's tool's gets neither offered, and the status says so in one line naming both.
func TestToolNameClashIsRefused(t *testing.T) {
	theirs := ToolName("my.s", "pid") // mcp__my_s__pid_<hash>
	mine := strings.TrimPrefix(theirs, "mcp__my_s__")
	m := newFakeManager(t, nil, fakeServer("my.s", "", nil), fakeServer("my_s", "", map[string]string{"FAKE_EXTRA_TOOL": mine}))
	waitAll(t, m)
	if ToolName("my_s", mine) != theirs {
		t.Fatalf("no clash to test: %s %s", ToolName("my_s", mine), theirs)
	}
	if tool, ok := m.Lookup(theirs); ok {
		t.Errorf("%s is offered for %s", theirs, tool.Server)
	}
	if _, ok := m.Lookup(ToolName("my_s", "pid")); !ok {
		t.Errorf("the other tools are not offered: %+v", m.Tools())
	}
	p := m.Status().Problems
	if len(p) != 1 || !strings.Contains(p[0], `my.s's tool "pid"`) || !strings.Contains(p[0], `my_s's tool "`+mine+`"`) {
		t.Errorf("problems %q", p)
	}
}

// TestStateWords: a server's state reads as a sentence after its name.
func TestStateWords(t *testing.T) {
	for _, c := range []struct {
		st   ServerStatus
		want string
	}{
		{ServerStatus{State: StateFailed, Reason: "cannot connect: x"}, "failed: cannot connect: x"},
		{ServerStatus{State: StateConnecting}, "is still starting"},
		{ServerStatus{State: StateDisabled}, "is disabled in the configuration"},
	} {
		if got := c.st.Words(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.st, got, c.want)
		}
	}
}
