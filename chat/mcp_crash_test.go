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
