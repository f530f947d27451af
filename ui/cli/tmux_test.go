package cli_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"followup/chat"
)

// term is the followup UI running in a detached tmux session.
type term struct {
	t       *testing.T
	socket  string
	session string
}

func startTerm(t *testing.T, db string) *term {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed, and CI must run the terminal tests")
		}
		t.Skip("tmux is not installed")
	}
	tm := &term{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), session: "followup"}
	tm.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", tm.session,
		fmt.Sprintf("FOLLOWUP_PROVIDER=offline TERM=xterm-256color %s --db %s", bin, db))
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *term) tmux(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (tm *term) screen() string { return tm.tmux("capture-pane", "-p", "-t", tm.session) }

// waitFor polls the screen until it shows every one of want.
func (tm *term) waitFor(want ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := tm.screen()
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(s, w)
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (tm *term) typeText(s string) { tm.tmux("send-keys", "-t", tm.session, "-l", s) }
func (tm *term) keys(k ...string) {
	tm.tmux(append([]string{"send-keys", "-t", tm.session}, k...)...)
}

func (tm *term) pid() int {
	out := strings.TrimSpace(tm.tmux("list-panes", "-t", tm.session, "-F", "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		tm.t.Fatalf("pane pid %q", out)
	}
	return pid
}

func TestTerminalShowsTheForm(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, filepath.Join(t.TempDir(), "tmux.db"))
	tm.waitFor("Type a message to start", "offline")
	tm.typeText("Check deployment")
	tm.keys("Enter")
	tm.waitFor("Choose an environment", "production", "staging")
	tm.waitFor("enter continue") // focus moves after a pause in typing
	tm.keys("Down")
	tm.keys("Enter")
	tm.waitFor("Review before sending", "Environment: staging")
	tm.keys("Enter")
	tm.waitFor("Deploying to staging", "succeeded")
}

func TestDraftSurvivesKill(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "kill.db")
	tm := startTerm(t, db)
	tm.waitFor("Type a message to start")
	tm.typeText("Write the release notes")
	tm.keys("Enter")
	tm.waitFor("What should I work on?", "enter continue")
	tm.typeText("the spring release, draft 7")
	tm.waitFor("the spring release, draft 7")
	waitDraft(t, db, "the spring release, draft 7") // autosave follows a pause
	if err := syscall.Kill(tm.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	exec.Command("tmux", "-S", tm.socket, "kill-server").Run() // gone with its pane already

	again := startTerm(t, db)
	again.waitFor("What should I work on?", "waiting for your answer")
	again.waitFor("the spring release, draft 7")
	// The draft is the user's, never the model's.
	r := runCLI(t, db, "pending", "--json")
	if strings.Contains(r.stdout, "spring release") {
		t.Fatalf("a draft leaked into the pending list: %s", r.stdout)
	}
}

// A whole answer typed in one burst (as a paste or a fast typist sends it)
// fills the fields the tabs move to.
func TestBurstWithTabsFillsEachField(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "burst.db")
	tm := startTerm(t, db)
	tm.waitFor("Type a message to start")
	tm.typeText("Plan a trip")
	tm.keys("Enter")
	tm.waitFor("Destination", "tab next field")
	tm.tmux("send-keys", "-t", tm.session, "Lisbon", "Tab", "2026-12-20", "Tab", "3")
	waitDraft(t, db, "travelers:3")
	waitDraft(t, db, "start:2026-12-20")
	waitDraft(t, db, "destination:Lisbon")
	// On across the page break and back: each page is built when shown.
	tm.tmux("send-keys", "-t", tm.session, "Tab", "900", "Tab", "Down", "BTab", "5")
	waitDraft(t, db, "transport:plane")
	waitDraft(t, db, "budget:9005")
	tm.waitFor("Plan the trip (1/2)")
}

// waitDraft polls the database until the pending request's draft holds text.
func waitDraft(t *testing.T, db, text string) {
	t.Helper()
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if rs, err := svc.Pending(ctx, ""); err == nil && len(rs) == 1 {
			if d, ok, _ := svc.LoadDraft(ctx, rs[0].ID, rs[0].Revision); ok && fmt.Sprint(d.Values) != "" &&
				strings.Contains(fmt.Sprint(d.Values), text) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no draft with %q was saved", text)
}
