package ui

import (
	"path/filepath"
	"testing"
	"time"

	"followup/ui/termtest"
)

// proposalIn is the id of the proposal waiting on request rq in db.
func proposalIn(t *testing.T, db, rq string) string {
	t.Helper()
	ps, _ := cli(t, db, "show", rq)["request"].(map[string]any)["proposals"].([]any)
	if len(ps) != 1 {
		t.Fatalf("%d proposals on %s, want 1", len(ps), rq)
	}
	return ps[0].(map[string]any)["proposalId"].(string)
}

// A proposal accepted from another shell while its card is on screen: the
// form takes the accepted values and says so, and an edit, its autosave
// and a restart keep them, the restart on the field typed in.
func TestTerminalProposalAcceptedFromTheCLI(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Plan a trip")
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("> Shanghai", "enter continue")
	tm.Keys("Escape")
	time.Sleep(human)
	tm.Type("use plane, travelers: 4")
	tm.Keys("Enter")
	tm.WaitFor("The agent proposes a change", "Travellers: (no answer) → 4")
	cli(t, db, "decide", proposalIn(t, db, rq), "--accept")
	tm.WaitFor("The proposal was accepted elsewhere, now in the form: Travellers, Transport.")
	tm.WaitGone("The agent proposes a change")
	tm.Keys("C-f")
	tm.Keys("Tab")
	tm.Keys("Tab")
	tm.WaitFor("┃ Travellers *", "┃ > 4")
	pid := tm.Pid() // before ctrl+c: its terminal ends with it
	tm.Keys("C-c")  // saves the draft on its way out
	termtest.WaitExit(t, pid)
	tm = startApp(t, db, 100, 30)
	tm.WaitFor("┃ Travellers *", "┃ > 4", "enter continue") // back on the field typed in, with the focus
}

// "a" accepts the proposal that took the focus by itself; "c" and "k"
// typed right after, 100 ms apart, are dropped: they do not move the
// form's select (the draft holds the accepted production).
func TestTerminalKeysAfterADecisionAreDropped(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("Type a message to start")
	tm.Type("Check deployment")
	tm.Keys("Enter")
	tm.WaitFor("Choose an environment", "enter continue")
	tm.Keys("Escape")
	time.Sleep(human)
	tm.Type("use production")
	tm.Keys("Enter")
	tm.WaitFor("║ a accept · k keep mine") // the card took the focus
	time.Sleep(dialogGrace + 100*time.Millisecond)
	tm.TypeSlowly("ack", 100*time.Millisecond)
	tm.WaitFor("Proposal accepted — review the form", "┃ > production")
	time.Sleep(time.Second)
	tm.WaitFor("┃ > production")
	tm.Keys("Enter")
	tm.WaitFor("Review before sending", "Environment: production")
}
