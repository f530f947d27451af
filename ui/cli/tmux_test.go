package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/chat"
	"followup/ui/termtest"
)

// startTerm runs the followup UI on db in a 100×30 terminal.
func startTerm(t *testing.T, db string) *termtest.Term {
	t.Helper()
	return termtest.Start(t, 100, 30, fmt.Sprintf("exec env FOLLOWUP_PROVIDER=offline TERM=xterm-256color %s --db %s", bin, db))
}

func TestTerminalShowsTheForm(t *testing.T) {
	t.Parallel()
	tm := startTerm(t, filepath.Join(t.TempDir(), "tmux.db"))
	tm.WaitFor("Type a message to start", "offline")
	tm.Type("Check deployment")
	tm.Keys("Enter")
	tm.WaitFor("Choose an environment", "production", "staging")
	tm.WaitFor("enter continue") // focus moves after a pause in typing
	tm.Keys("Down")
	tm.Keys("Enter")
	tm.WaitFor("Review before sending", "Environment: staging")
	tm.Keys("Enter")
	tm.WaitFor("Deploying to staging", "succeeded")
}

func TestDraftSurvivesKill(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "kill.db")
	tm := startTerm(t, db)
	tm.WaitFor("Type a message to start")
	tm.Type("Write the release notes")
	tm.Keys("Enter")
	tm.WaitFor("What should I work on?", "enter continue")
	tm.Type("the spring release, draft 7")
	tm.WaitFor("the spring release, draft 7")
	waitDraft(t, db, "the spring release, draft 7") // autosave follows a pause
	tm.Kill()

	again := startTerm(t, db)
	again.WaitFor("What should I work on?", "waiting for your answer")
	again.WaitFor("the spring release, draft 7")
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
	tm.WaitFor("Type a message to start")
	tm.Type("Plan a trip")
	tm.Keys("Enter")
	tm.WaitFor("Destination", "tab next field")
	tm.Keys("Lisbon", "Tab", "2026-12-20", "Tab", "3")
	waitDraft(t, db, "travelers:3")
	waitDraft(t, db, "start:2026-12-20")
	waitDraft(t, db, "destination:Lisbon")
	// On across the page break and back: each page is built when shown.
	tm.Keys("Tab", "900", "Tab", "Down", "BTab", "5")
	waitDraft(t, db, "transport:plane")
	waitDraft(t, db, "budget:9005")
	tm.WaitFor("Plan the trip (1/2)")
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

// On a terminal that says it cannot move its cursor (TERM=dumb: an
// editor's shell buffer), the chat screen is a usage error in words, and
// opens nothing.
func TestTheScreenOnADumbTerminal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "dumb.db")
	tm := termtest.Start(t, 100, 30, fmt.Sprintf("env TERM=dumb %s --db %s; echo exit=$?; sleep 30", bin, db))
	tm.WaitFor("TERM=dumb says this one", "exit=2")
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the database was opened: %v", err)
	}
}
