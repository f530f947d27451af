package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/ui/termtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	termtest.RemoveBinary()
	os.Exit(code)
}

// human is the pause between keys of someone typing at a normal speed.
const human = 120 * time.Millisecond

// startScreen runs the chat screen on db in a w×h terminal.
func startScreen(t *testing.T, db string, w, h int) *termtest.Term {
	t.Helper()
	bin := termtest.Binary(t)
	return termtest.Start(t, w, h, fmt.Sprintf("FOLLOWUP_PROVIDER=offline TERM=xterm-256color %s --db %s", bin, db))
}

// cli runs a followup command on db and returns its JSON output.
func cli(t *testing.T, db string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(termtest.Binary(t), append([]string{"--db", db, "--json"}, args...)...)
	cmd.Env = append(os.Environ(), "FOLLOWUP_PROVIDER=offline")
	out, err := cmd.Output()
	var v map[string]any
	if jerr := json.Unmarshal(out, &v); jerr != nil {
		t.Fatalf("followup %v: %v, %v: %s", args, err, jerr, out)
	}
	return v
}

// Typing on after sending, through the moment a question arrives and a
// pause: everything typed stays in the composer, and the form waits.
func TestTerminalTypingOnKeepsTheComposer(t *testing.T) {
	t.Parallel()
	tm := startScreen(t, filepath.Join(t.TempDir(), "f.db"), 100, 30)
	tm.WaitFor("Type a message to start")
	tm.TypeSlowly("hello", human)
	tm.Keys("Enter")
	tm.TypeSlowly("and also", human)
	tm.WaitFor("What should I work on?")
	time.Sleep(time.Second)
	tm.TypeSlowly(" more", human)
	s := tm.WaitFor("› and also more", "ctrl+f to answer")
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "┃ >") && strings.Contains(line, "more") {
			t.Fatalf("words went into the form:\n%s", s)
		}
	}
}

// A question asked from another process while the user has half a message
// typed waits; the next keys finish the message, and the form's
// suggestion is untouched.
func TestTerminalQuestionFromElsewhereWaits(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Check deployment")
	chatID := asked["chatId"].(string)
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	cli(t, db, "answer", rq, "--values-json", `{"environment":"staging"}`)
	tm := startScreen(t, db, 100, 30)
	tm.WaitFor("Deploying to staging")
	tm.TypeSlowly("Half a mess", human)
	cli(t, db, "ask", "Plan a trip", "--chat", chatID)
	tm.WaitFor("Plan the trip", "Shanghai")
	tm.TypeSlowly("age", human)
	time.Sleep(time.Second)
	tm.TypeSlowly(" here", human)
	tm.WaitFor("› Half a message here", "> Shanghai", "ctrl+f to answer")
}

// With a proposal showing, a word typed at a normal speed is text: its
// first letter does not accept the proposal.
func TestTerminalTypingDoesNotDecideAProposal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startScreen(t, db, 100, 30)
	tm.WaitFor("Type a message to start")
	tm.TypeSlowly("Check deployment", human/3)
	tm.Keys("Enter")
	tm.WaitFor("Choose an environment", "enter continue")
	tm.Keys("Escape")
	time.Sleep(human) // an esc right before a letter would read as alt+letter
	tm.TypeSlowly("use staging", human/3)
	tm.Keys("Enter")
	// Typing on while the proposal arrives, a key every 150 ms.
	tm.TypeSlowly("alr", 150*time.Millisecond)
	tm.WaitFor("The agent proposes a change")
	tm.TypeSlowly("alr", 150*time.Millisecond)
	tm.WaitFor("› alralr", "The agent proposes a change", "ctrl+f to decide")
	time.Sleep(time.Second)
	pending := cli(t, db, "pending")["requests"].([]any)
	if len(pending) != 1 {
		t.Fatalf("%d questions pending, want the deploy question still open", len(pending))
	}
}

// Typing from the moment the screen appears, at a normal speed, on a chat
// whose question is on the first frame: the form has the focus from that
// frame, so the keys are the form's and the composer stays empty.
func TestTerminalTypingAsTheScreenStartsGoesToTheForm(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	cli(t, db, "ask", "Plan a trip")
	tm := startScreen(t, db, 100, 30)
	tm.WaitFor("Plan the trip") // the first frame with the form
	tm.TypeSlowly("typing", human/2)
	s := tm.WaitFor("typing", "enter continue")
	inForm := false
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "› typing") {
			t.Fatalf("the keys went to the composer:\n%s", s)
		}
		inForm = inForm || strings.Contains(line, "┃") && strings.Contains(line, "typing")
	}
	if !inForm {
		t.Fatalf("the keys are not in the form:\n%s", s)
	}
}
