package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// signalled starts followup with args, sends sig once ready is closed, and
// returns what it printed and its exit code; it fails the test when the
// command outlives the signal by more than a few seconds.
func signalled(t *testing.T, env []string, ready <-chan struct{}, sig syscall.Signal, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("%v ended before the signal: %v\n%s%s", args, err, out.String(), errb.String())
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v never got ready", args)
	}
	cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v ignored %v", args, sig)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// hangingModel is a model server that takes every call and never
// answers; called runs as each call arrives.
func hangingModel(t *testing.T, called func()) *httptest.Server {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that the server notices the client going
		called()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv
}

// A signal ends a command while it drives a run (here inside a model call
// that never answers): the call is abandoned, the command says so, and the
// run stays as it was, ready to resume.
func TestSignalEndsADrive(t *testing.T) {
	t.Parallel()
	called := make(chan struct{})
	var once sync.Once
	srv := hangingModel(t, func() { once.Do(func() { close(called) }) })
	db := filepath.Join(t.TempDir(), "s.db")
	env := []string{"FOLLOWUP_PROVIDER=openai", "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=test-key"}
	stdout, stderr, code := signalled(t, env, called, syscall.SIGINT, "--db", db, "ask", "Check deployment", "--json")
	var doc struct {
		OK    bool `json:"ok"`
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 130 || doc.Error.Code != "INTERRUPTED" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	runID, _ := doc.Error.Details["runId"].(string)
	if !strings.Contains(doc.Error.Message, "followup resume "+runID) || runID == "" {
		t.Fatalf("the message does not say how to go on: %v", doc.Error)
	}
	run := decode(t, runCLI(t, db, "inspect", runID, "--json"))["run"].(map[string]any)
	if run["state"] != "running" {
		t.Fatalf("the interrupted run is %v", run["state"])
	}
	res := runCLI(t, db, "resume", runID, "--json")
	if res.code != 0 || decode(t, res)["run"].(map[string]any)["state"] != "waiting_input" {
		t.Fatalf("resume: exit %d, %s %s", res.code, res.stdout, res.stderr)
	}
	// In text mode the message goes to stderr, stdout stays empty.
	ready := make(chan struct{})
	var once2 sync.Once
	srv2 := hangingModel(t, func() { once2.Do(func() { close(ready) }) })
	env[1] = "OPENAI_BASE_URL=" + srv2.URL + "/v1"
	stdout, stderr, code = signalled(t, env, ready, syscall.SIGTERM, "--db", db, "ask", "Plan a trip")
	if code != 143 || stdout != "" || !strings.HasPrefix(stderr, "followup: INTERRUPTED: interrupted by SIGTERM") {
		t.Fatalf("text: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// A signal ends a command even where no context reaches, such as a
// database path that is a FIFO nobody writes (if the open does not refuse
// it at once).
func TestSignalEndsABlockedOpen(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "f.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--db", fifo, "pending", "--json")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done: // refused at once: that is fine too
		if cmd.ProcessState.ExitCode() != 1 {
			t.Fatalf("a FIFO: exit %d, %s", cmd.ProcessState.ExitCode(), out.String())
		}
		return
	case <-waitingForWriter(cmd.Process.Pid):
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("the command ignored SIGTERM while opening the database")
	}
	if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(out.String(), `"code":"INTERRUPTED"`) {
		t.Fatalf("exit %d, %s", code, out.String())
	}
}

// waitingForWriter is closed once a thread of pid waits in the open of a
// FIFO for its other end (or after 10 s): a signal sent then finds the
// command blocked in the open, however slowly a loaded machine started it.
func waitingForWriter(pid int) <-chan struct{} {
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
			for _, w := range tasks {
				if b, _ := os.ReadFile(w); string(b) == "wait_for_partner" {
					return
				}
			}
		}
	}()
	return ready
}
