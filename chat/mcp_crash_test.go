package chat_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
	"followup/chat"
)

// mcpChild runs followup children (the crashhook build) on one database,
// with server-everything over stdio as "everything", every tool
// auto-approved.
type mcpChild struct {
	t              *testing.T
	bin, db, state string
	config         string
}

func newMCPChild(t *testing.T) *mcpChild {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	dir := t.TempDir()
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{
		"command": command, "args": args, "autoApprove": true, "timeout": 20}}})
	config := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(config, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return &mcpChild{t: t, bin: followupBinary(t, "crashhook"), db: filepath.Join(dir, "f.db"), state: t.TempDir(), config: config}
}

// run runs followup ARGS --json, crashing at step ("" for none), and
// returns its JSON result (nil when it was killed).
func (c *mcpChild) run(step string, args ...string) map[string]any {
	c.t.Helper()
	cmd := exec.Command(c.bin, append([]string{"--db", c.db, "--mcp-config", c.config, "--json"}, args...)...)
	cmd.Env = append(childEnv(), "XDG_STATE_HOME="+c.state)
	cmd.Env = append(cmd.Env, crashAt(step)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signaled() {
		if step == "" {
			c.t.Fatalf("followup %v was killed", args)
		}
		c.noServerLeft()
		return nil
	}
	if step != "" {
		c.t.Fatalf("followup %v never reached %s: %v\n%s", args, step, err, out.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		c.t.Fatalf("followup %v: %v\n%s", args, err, out.String())
	}
	return v
}

// noServerLeft waits until no process of the servers outlives the killed
// followup.
func (c *mcpChild) noServerLeft() {
	c.t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		alive := 0
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			env, err := os.ReadFile(filepath.Join(d, "environ"))
			st, _ := os.ReadFile(filepath.Join(d, "stat"))
			if err == nil && bytes.Contains(env, []byte("XDG_STATE_HOME="+c.state+"\x00")) && !bytes.Contains(st, []byte(") Z ")) {
				alive++
			}
		}
		if alive == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%d server processes outlived the kill", alive)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// steps reads a chat's tool steps with a fresh service.
func (c *mcpChild) steps(chatID string) []chat.ToolStepView {
	c.t.Helper()
	s, err := chat.Open(c.t.Context(), chat.Options{DBPath: c.db})
	if err != nil {
		c.t.Fatal(err)
	}
	defer s.Close()
	steps, err := s.ToolSteps(c.t.Context(), chatID)
	if err != nil {
		c.t.Fatal(err)
	}
	return steps
}

// A crash between a call's record and its result (docs/mcp.md): a
// read-only tool is called again on resume; any other is never re-run
// silently — the model is told tool_interrupted. A crash after the
// outcome was recorded repeats nothing.
func TestMCPCrashDuringACall(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, step, message string
		attempts            int
		outcome, says       string
	}{
		{"read-only, killed after the server answered", chat.CrashToolCalled, `call everything.echo {"message": "again"}`,
			2, chat.OutcomeOK, "Echo: again"},
		{"read-only, killed before the call", chat.CrashToolStarted, `call everything.echo {"message": "again"}`,
			2, chat.OutcomeOK, "Echo: again"},
		{"not read-only, killed after the server answered", chat.CrashToolCalled, "call everything.toggle-simulated-logging",
			1, chat.OutcomeInterrupted, "interrupted"},
		{"killed after the outcome was recorded", chat.CrashToolFinished, "call everything.toggle-simulated-logging",
			1, chat.OutcomeOK, "logging"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newMCPChild(t)
			if v := c.run(tc.step, "ask", tc.message); v != nil {
				t.Fatalf("ask = %v", v)
			}
			// The killed run is found by its chat; resume it.
			chatID := c.run("", "chats")["chats"].([]any)[0].(map[string]any)["id"].(string)
			msgs := c.run("", "inspect", chatID)["messages"].([]any)
			runID := msgs[0].(map[string]any)["runId"].(string)
			res := c.run("", "resume", runID)
			out := res["run"].(map[string]any)
			if out["state"] != "succeeded" || !strings.Contains(strings.ToLower(out["reply"].(string)), strings.ToLower(tc.says)) {
				t.Fatalf("resume = %v", res)
			}
			steps := c.steps(chatID)
			if len(steps) != 1 || steps[0].Attempts != tc.attempts || steps[0].Outcome != tc.outcome {
				t.Fatalf("steps = %+v", steps)
			}
		})
	}
}

// A reply to a server's question that its host, killed, never handed over
// is not left "to be sent" forever: the next start of followup records it
// failed, in words, since the server's connection ended with the host.
func TestMCPReplyLeftByAKilledHostFails(t *testing.T) {
	t.Parallel()
	c := newMCPChild(t)
	cmd := exec.Command(c.bin, "--db", c.db, "--mcp-config", c.config, "--json", "ask", "call everything.trigger-elicitation-request")
	cmd.Env = append(append(childEnv(), "XDG_STATE_HOME="+c.state), crashAt(chat.CrashServerReply)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	s, err := chat.Open(ctx, chat.Options{DBPath: c.db})
	if err != nil {
		t.Fatal(err)
	}
	var requestID string
	for end := time.Now().Add(30 * time.Second); requestID == ""; time.Sleep(50 * time.Millisecond) {
		if page, err := s.ChatList(ctx, "", 10); err == nil && len(page.Chats) > 0 {
			if p, err := s.Pending(ctx, page.Chats[0].ID); err == nil && len(p) > 0 {
				requestID = p[0].ID
			}
		}
		if time.Now().After(end) {
			t.Fatal("the server's question never came")
		}
	}
	if _, err := s.Cancel(ctx, requestID, ""); err != nil {
		t.Fatal(err)
	}
	s.Close()
	var exit *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exit) || !exit.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("the host was not killed at %s: %v", chat.CrashServerReply, err)
	}
	c.noServerLeft()
	s, err = chat.Open(ctx, chat.Options{DBPath: c.db})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := s.Request(ctx, requestID)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Deliveries) != 1 || r.Deliveries[0].State != "failed" || !strings.Contains(r.Deliveries[0].LastError, "followup stopped before handing it over") {
		t.Fatalf("deliveries %+v", r.Deliveries)
	}
}
