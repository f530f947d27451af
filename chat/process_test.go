package chat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/cli"
)

// The durability tests run the followup command line in child processes so
// they can kill them with SIGKILL. The child is this test binary itself
// (GO_WANT_HELPER_PROCESS=1), which runs the same cli.Exec as the followup
// binary after the same wiring as main.go, without building anything.

const (
	helperEnv  = "GO_WANT_HELPER_PROCESS"
	startAtEnv = "FOLLOWUP_TEST_START_AT" // unix nanoseconds: children start together
)

// TestFollowupProcess is not a test: as a child process it is `followup`.
func TestFollowupProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("the followup command line of the process tests")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	if at, err := strconv.ParseInt(os.Getenv(startAtEnv), 10, 64); err == nil {
		time.Sleep(time.Until(time.Unix(0, at)))
	}
	os.Exit(followupCLI(args))
}

// followupCLI is the followup command line, as main runs it.
func followupCLI(argv []string) int {
	return cli.Main(argv, strings.NewReader(""), os.Stdout, os.Stderr, nil)
}

// fuCLI runs followup children on one database.
type fuCLI struct {
	t   *testing.T
	db  string
	env []string // added to every child's environment
}

// fuResult is how a child ended.
type fuResult struct {
	Code           int
	Killed         bool // by SIGKILL (the crash hook or the test)
	Stdout, Stderr string
	JSON           map[string]any // stdout decoded, when it is JSON
}

func (r fuResult) String() string {
	return fmt.Sprintf("exit %d killed=%v\nstdout: %s\nstderr: %s", r.Code, r.Killed, r.Stdout, r.Stderr)
}

// command prepares a child; extra adds environment for this child only.
func (f *fuCLI) command(ctx context.Context, extra []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	argv := append([]string{"-test.run=^TestFollowupProcess$", "--", "--db", f.db, "--json"}, args...)
	cmd := exec.CommandContext(ctx, os.Args[0], argv...)
	cmd.Env = append(append(childEnv(), f.env...), extra...)
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// run runs a child to its end (at most 60 s).
func (f *fuCLI) run(extra []string, args ...string) fuResult {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd, stdout, stderr := f.command(ctx, extra, args...)
	return f.result(cmd.Run(), cmd, stdout, stderr)
}

// ok runs a child and fails the test unless it exits 0 with JSON ok.
func (f *fuCLI) ok(extra []string, args ...string) fuResult {
	f.t.Helper()
	r := f.run(extra, args...)
	if r.Code != 0 || r.JSON["ok"] != true {
		f.t.Fatalf("followup %s: %s", strings.Join(args, " "), r)
	}
	return r
}

func (f *fuCLI) result(err error, cmd *exec.Cmd, stdout, stderr *bytes.Buffer) fuResult {
	f.t.Helper()
	r := fuResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			r.Killed = true
		}
	default:
		f.t.Fatalf("child: %v", err)
	}
	if s := strings.TrimSpace(r.Stdout); s != "" {
		json.Unmarshal([]byte(s), &r.JSON)
	}
	return r
}

// fewer reports whether the process tests should do fewer rounds: in
// -short mode and under the race detector.
func fewer() bool { return testing.Short() || raceEnabled }

// crashAt is the child environment that kills it at a step.
func crashAt(step string) []string {
	if step == "" {
		return nil
	}
	return []string{chat.CrashEnv + "=" + step}
}

// childEnv is this process's environment without anything that could
// select a provider, reach a network or crash the child by accident.
func childEnv() []string {
	out := []string{helperEnv + "=1"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		if strings.HasPrefix(u, "FOLLOWUP_") || strings.HasPrefix(u, "OPENAI_") || strings.HasPrefix(u, "ANTHROPIC_") ||
			strings.HasSuffix(u, "_PROXY") || u == helperEnv {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// str walks decoded JSON by keys and indexes and returns a string.
func str(v any, path ...any) string {
	v = walk(v, path...)
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func walk(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}
