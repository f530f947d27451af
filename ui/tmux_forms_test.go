package ui

import (
	"path/filepath"
	"testing"
	"time"
)

// The data loss, as a user meets it: the trip form is open, a
// partial answer comes from another shell; the form shows Oslo instead of
// the Shanghai suggestion and the start date, says so, and what the user
// then sends keeps Oslo.
func TestTerminalPartialAnswerFromTheCLIShows(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Plan a trip")
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("> Shanghai", "enter continue")
	cli(t, db, "answer", rq, "--values-json", `{"destination":"Oslo","start":"2026-07-01"}`)
	tm.WaitFor("> Oslo", "> 2026-07-01", "Answered elsewhere, now in the form: Destination, Start date")
	tm.WaitGone("Shanghai")
	tm.Keys("Tab")
	tm.Keys("Tab")
	tm.WaitFor("┃ Travellers *")
	tm.Type("3")
	for _, next := range []string{"┃ Budget", "┃ Transport", "┃ Interests", "┃ Notes", "Review before sending"} {
		tm.Keys("Enter") // transport: train
		tm.WaitFor(next)
	}
	tm.WaitFor("Review before sending", "Destination: Oslo", "Start date: 2026-07-01", "Travellers: 3")
	tm.Keys("Enter")
	tm.WaitFor("answered: Destination: Oslo")
	got := cli(t, db, "show", rq)
	ans := got["request"].(map[string]any)["answer"].(map[string]any)["values"].(map[string]any)
	if ans["destination"] != "Oslo" || ans["start"] != "2026-07-01" {
		t.Fatalf("stored answer %v", ans)
	}
}

// A question answered from the CLI while the user types in its form: one
// line says so and what they had typed stays readable.
func TestTerminalAnsweredFromTheCLIWhileTyping(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	asked := cli(t, db, "ask", "Plan a trip")
	rq := asked["pending"].([]any)[0].(map[string]any)["id"].(string)
	tm := startApp(t, db, 100, 30)
	tm.WaitFor("> Shanghai", "enter continue")
	tm.Keys("C-u")
	tm.Type("Lisbon")
	tm.WaitFor("> Lisbon")
	cli(t, db, "answer", rq, "--values-json", `{"destination":"Rome","start":"2026-08-01","travelers":2,"transport":"train"}`)
	tm.WaitFor("“Plan the trip” was answered from another window", "What you had typed (not sent):", "Destination: Lisbon",
		"Answered there: Destination: Rome", "esc dismiss · ctrl+f to the composer") // it took the focus
	time.Sleep(dialogGrace) // the user reads it: a key right after the focus moved is taken as meant for before
	tm.Keys("Escape")
	tm.WaitGone("What you had typed")
}
