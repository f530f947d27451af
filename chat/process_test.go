package chat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"followup/agent/agenttest"
	"followup/chat"
)

// The durability tests run the followup command line in child processes so
// they can kill them with SIGKILL. The child is the followup binary built
// once per test run with -tags crashhook, which crashes at the step
// FOLLOWUP_CRASH_AT names (see crashhook.go); a normal build has no such
// hook.

// startAtEnv names the instant (unix nanoseconds) at which a crashhook
// child starts its work: the race tests' children start together.
const startAtEnv = "FOLLOWUP_TEST_START_AT"

// builds holds the followup binaries built for this test run, by build
// tags.
var builds struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// TestMain removes the child binaries after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// followupBinary builds followup with the given build tags once per test
// run (the go build cache makes later runs cheap) and returns its path.
func followupBinary(t *testing.T, tags string) string {
	t.Helper()
	builds.Lock()
	defer builds.Unlock()
	if bin, ok := builds.bins[tags]; ok {
		return bin
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "followup-chat-child")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir, builds.bins = dir, map[string]string{}
	}
	bin := filepath.Join(builds.dir, "followup-"+strconv.Itoa(len(builds.bins)))
	if out, err := exec.Command("go", "build", "-tags", tags, "-o", bin, "followup").CombinedOutput(); err != nil {
		t.Fatalf("building followup -tags %q: %v\n%s", tags, err, out)
	}
	builds.bins[tags] = bin
	return bin
}

// normalChildEnv makes the test binary, run as a child, the normal build
// of TestCrashHookOnlyInCrashhookBuilds.
const normalChildEnv = "FOLLOWUP_TEST_NORMAL_CHILD"

// TestCrashHookOnlyInCrashhookBuilds: a normal build never reads
// FOLLOWUP_CRASH_AT — this test binary, run again as a child with it set,
// drives a run to its wait — while the durability tests' child dies there.
func TestCrashHookOnlyInCrashhookBuilds(t *testing.T) {
	t.Parallel()
	if db := os.Getenv(normalChildEnv); db != "" {
		ctx := context.Background()
		s, err := chat.Open(ctx, chat.Options{DBPath: db})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		sent, err := s.Send(ctx, "", "Deploy the release", "")
		if err == nil {
			_, err = s.Drive(ctx, sent.RunID)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	dir := t.TempDir()
	normal := exec.Command(os.Args[0], "-test.run=^TestCrashHookOnlyInCrashhookBuilds$")
	normal.Env = append(childEnv(), normalChildEnv+"="+filepath.Join(dir, "normal.db"))
	hooked := exec.Command(followupBinary(t, "crashhook"), "--db", filepath.Join(dir, "hooked.db"), "--json", "ask", "Deploy the release")
	hooked.Env = childEnv()
	for _, tc := range []struct {
		name   string
		cmd    *exec.Cmd
		killed bool
	}{{"a normal build", normal, false}, {"a crashhook build", hooked, true}} {
		tc.cmd.Env = append(tc.cmd.Env, crashAt(chat.CrashDrive)...)
		out, err := tc.cmd.CombinedOutput()
		var exit *exec.ExitError
		killed := errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signaled()
		if killed != tc.killed || (!tc.killed && err != nil) {
			t.Errorf("%s: %v (killed %v)\n%s", tc.name, err, killed, out)
		}
	}
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
	argv := append([]string{"--db", f.db, "--json"}, args...)
	cmd := exec.CommandContext(ctx, followupBinary(f.t, "crashhook"), argv...)
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
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		if strings.HasPrefix(u, "FOLLOWUP_") || strings.HasPrefix(u, "OPENAI_") || strings.HasPrefix(u, "ANTHROPIC_") ||
			strings.HasSuffix(u, "_PROXY") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// str walks decoded JSON by keys and indexes and returns a string.
func str(v any, path ...any) string {
	v = agenttest.Path(v, path...)
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
