package ui

import (
	"bytes"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"followup/chat"
	"followup/ui/words"
)

// The form's head names a server asking during a sub-agent's call and
// the sub-agent.
func TestAskedByServerForSubAgent(t *testing.T) {
	o := chat.Owner{Kind: chat.OwnerMCPServer, Name: "booking", RunID: "r2", ParentRunID: "r1", Path: "venue"}
	if got, want := words.AskedBy(o), "asked by booking (MCP server) for venue (sub-agent of this task)"; got != want {
		t.Fatalf("askedBy = %q, want %q", got, want)
	}
	o.ParentRunID, o.Path = "", ""
	if got, want := words.AskedBy(o), "asked by booking (MCP server)"; got != want {
		t.Fatalf("askedBy = %q, want %q", got, want)
	}
}

// TestSubAgentsOnScreen: the demo's delegation on the screen — a row per
// sub-agent (name, state, last line), each form naming who asks, one
// answered and the other cancelled, and the parent's summary.
func TestSubAgentsOnScreen(t *testing.T) {
	h := newKit(t).run()
	h.typeText("Plan a team offsite")
	h.key(tea.KeyEnter)
	// The two ask at once, in either order: the tabs follow it, and the
	// form shown is the one that arrived alone first, or the newer of two
	// that arrived together. The output is every frame so far, and the
	// form's head is one line: the later of the two heads written is the
	// form on screen.
	venueShown := false
	teatest.WaitFor(t, h.tm.Output(), func(b []byte) bool {
		venue := bytes.LastIndex(b, []byte("asked by venue (sub-agent of this task)"))
		trip := bytes.LastIndex(b, []byte("asked by travel (sub-agent of this task)"))
		venueShown = venue > trip
		return containsAll(string(b), "◆ venue · sub-agent · waiting for your answer", "◆ travel · sub-agent · waiting for your answer",
			"I'm looking for a venue", "enter continue", "waiting for its sub-agents") && max(venue, trip) >= 0
	}, teatest.WithDuration(15*time.Second))
	t.Logf("the venue's form shown first: %v", venueShown)
	if !venueShown {
		h.key(tea.KeyCtrlN)
		h.waitFor("asked by venue (sub-agent of this task)")
	}
	h.key(tea.KeyEnter) // City: the suggested Lisbon
	h.runes("12")
	h.key(tea.KeyEnter)
	h.waitFor("Review before sending", "People: 12")
	h.key(tea.KeyEnter)
	h.waitFor("◆ venue · sub-agent · succeeded", "A venue in Lisbon for 12 people is booked")
	h.key(tea.KeyCtrlF)
	h.key(tea.KeyCtrlX)
	h.waitFor("Cancel this question?")
	h.runes("y")
	h.waitFor("Here is what the sub-agents found", "its question was cancelled")
	if r := h.waitRun("succeeded"); r.ParentRunID != "" {
		t.Fatalf("the chat's run is a sub-agent: %+v", r)
	}
}
