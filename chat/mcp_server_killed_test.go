package chat

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"followup/agent/mcp"
)

// A server killed while its question is open: the question is
// disconnected (its connection ended), not withdrawn, and the model reads
// in words that the server stopped during the call, not the SDK's EOF.
func TestMCPServerKilledMidQuestion(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{All: true})
	ctx := context.Background()
	sent, err := s.Send(ctx, "", "call everything.trigger-elicitation-request", "")
	if err != nil {
		t.Fatal(err)
	}
	done := driveAsync(s, sent.RunID)
	r := fxWaitPending(t, s, sent.ChatID)
	killChildServers(t)
	waitRun(t, done)
	shown, err := s.Request(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if shown.State != "expired" || shown.ClosedReason != ReasonDisconnected {
		t.Fatalf("request after the kill: %s (%s), want expired (disconnected); steps %+v", shown.State, shown.ClosedReason, fxSteps(t, s, sent.ChatID))
	}
	steps := fxSteps(t, s, sent.ChatID)
	if len(steps) != 1 || !strings.Contains(steps[0].Text, "everything stopped (killed by a signal) during the call") || strings.Contains(steps[0].Text, "EOF") {
		t.Fatalf("steps = %+v", steps)
	}
}

// killChildServers kills (SIGKILL) this test's child processes that run
// server-everything, as a crash would.
func killChildServers(t *testing.T) {
	t.Helper()
	me := fmt.Sprint(os.Getpid())
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	n := 0
	for _, d := range dirs {
		st, _ := os.ReadFile(filepath.Join(d, "stat"))
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		// After the command's name: its state (any: a busy server is
		// running, not sleeping), then its parent.
		after := st[bytes.LastIndexByte(st, ')')+1:]
		if f := strings.Fields(string(after)); len(f) < 2 || f[1] != me || !bytes.Contains(cmd, []byte("everything")) {
			continue
		}
		var pid int
		fmt.Sscan(filepath.Base(d), &pid)
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no server-everything process to kill")
	}
}
