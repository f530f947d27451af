// Package termtest runs followup in a real terminal for tests: a detached
// tmux session on a private socket, driven at human speed and read back
// with capture-pane. Tests poll the screen for what they expect instead
// of sleeping.
package termtest

import (
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
)

// Term is a program running in a detached tmux session of its own.
type Term struct {
	t       testing.TB
	socket  string
	session string
}

// Require fails the test when tmux is missing and CI=true, and skips it
// otherwise.
func Require(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
}

// Start runs command (a shell command line) in a w×h terminal; the
// session ends with the test.
func Start(t testing.TB, w, h int, command string) *Term {
	t.Helper()
	Require(t)
	tm := &Term{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), session: "t"}
	tm.tmux("new-session", "-d", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), "-s", tm.session, command)
	t.Cleanup(tm.Close)
	return tm
}

// userEnv is this process's environment as a user's terminal has it: a
// CI runner's CI variable is left out, since it makes the terminal
// libraries treat the pane as no terminal at all (no colour), which no
// user's terminal does.
func userEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") {
			env = append(env, kv)
		}
	}
	return env
}

func (tm *Term) tmux(args ...string) string {
	tm.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...)
	cmd.Env = userEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// Screen is what the terminal shows now.
func (tm *Term) Screen() string { return tm.tmux("capture-pane", "-p", "-t", tm.session) }

// WaitFor polls the screen until it shows every one of want, and returns it.
func (tm *Term) WaitFor(want ...string) string {
	tm.t.Helper()
	return tm.waitUntil(fmt.Sprintf("%q", want), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// WaitGone polls the screen until it shows none of gone, and returns it.
func (tm *Term) WaitGone(gone ...string) string {
	tm.t.Helper()
	return tm.waitUntil(fmt.Sprintf("no %q", gone), func(s string) bool {
		for _, g := range gone {
			if strings.Contains(s, g) {
				return false
			}
		}
		return true
	})
}

func (tm *Term) waitUntil(what string, ok func(string) bool) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := tm.Screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the screen never showed %s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Type sends s as typed text, all at once.
func (tm *Term) Type(s string) { tm.tmux("send-keys", "-t", tm.session, "-l", s) }

// TypeSlowly types s a character at a time, gap apart, as a person does.
func (tm *Term) TypeSlowly(s string, gap time.Duration) {
	for _, r := range s {
		tm.Type(string(r))
		time.Sleep(gap)
	}
}

// Paste pastes s as a terminal does, in a bracketed paste (line breaks as
// the pane sends them: carriage returns).
func (tm *Term) Paste(s string) {
	tm.tmux("set-buffer", "-b", "termtest", s)
	tm.tmux("paste-buffer", "-p", "-d", "-b", "termtest", "-t", tm.session)
}

// Modes reports whether the pane shows the alternate screen and the
// cursor: what a program that took the terminal must give back.
func (tm *Term) Modes() (altScreen, cursor bool) {
	f := strings.Fields(tm.tmux("display-message", "-p", "-t", tm.session, "#{alternate_on} #{cursor_flag}"))
	return len(f) == 2 && f[0] == "1", len(f) == 2 && f[1] == "1"
}

// Keys sends named keys (Enter, Tab, C-x, …).
func (tm *Term) Keys(k ...string) { tm.tmux(append([]string{"send-keys", "-t", tm.session}, k...)...) }

// Pid is the process id of the program in the terminal.
func (tm *Term) Pid() int {
	out := strings.TrimSpace(tm.tmux("list-panes", "-t", tm.session, "-F", "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		tm.t.Fatalf("pane pid %q", out)
	}
	return pid
}

// Kill ends the program at once with SIGKILL, as a crash or a closed
// laptop does, waits until it is gone (nothing of it holds the database
// any more) and ends the terminal.
func (tm *Term) Kill() {
	tm.t.Helper()
	pid := tm.Pid()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		tm.t.Fatalf("kill %d: %v", pid, err)
	}
	WaitExit(tm.t, pid)
	tm.Close()
}

// Close ends the terminal and what runs in it.
// It waits (10 s at most) until the programs that ran in it are gone: one
// that saves its drafts on the way out must not write into a test's
// directory while the test removes it.
func (tm *Term) Close() {
	out, _ := exec.Command("tmux", "-S", tm.socket, "list-panes", "-a", "-F", "#{pane_pid}").Output()
	exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
	deadline := time.Now().Add(10 * time.Second)
	for _, field := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(field); err == nil {
			gone(pid, deadline)
		}
	}
}

// WaitExit polls until process pid is gone.
func WaitExit(t testing.TB, pid int) {
	t.Helper()
	if !gone(pid, time.Now().Add(10*time.Second)) {
		t.Fatalf("process %d is still running", pid)
	}
}

// gone polls until process pid is gone, or the deadline; it reports which.
func gone(pid int, deadline time.Time) bool {
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

// Binary is the followup binary, built once per test process; call
// RemoveBinary when the tests end (from TestMain).
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "followup-termtest")
		if buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(buildDir, "followup"), "followup").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, "followup")
}

// RemoveBinary deletes what Binary built.
func RemoveBinary() {
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
}
