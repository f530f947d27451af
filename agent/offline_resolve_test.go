package agent

import (
	"encoding/json"
	"strings"
	"testing"
)

// tripAsked is a history in which the demo agent asked for a trip.
func tripAsked(t *testing.T) []Message {
	first := complete(t, []Message{{Role: RoleUser, Content: "Plan a trip"}})
	return []Message{
		{Role: RoleUser, Content: "Plan a trip"},
		first,
		{Role: RoleTool, ToolCallID: first.ToolCalls[0].ID, Content: `{"ok":true,"requestId":"rq_1","digest":"d1","state":"pending"}`},
	}
}

// resolved answers the turn's input_resolve call with result and returns
// the history with both and the demo agent's next turn.
func resolved(t *testing.T, h []Message, turn Message, result string) ([]Message, Message) {
	t.Helper()
	if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "input_resolve" {
		t.Fatalf("no proposal: %+v", turn)
	}
	h = append(h, turn, Message{Role: RoleTool, ToolCallID: turn.ToolCalls[0].ID, ToolName: "input_resolve", Content: result})
	return h, complete(t, h)
}

func resolveValues(t *testing.T, m Message) map[string]any {
	t.Helper()
	var args resolveCall
	if err := json.Unmarshal(m.ToolCalls[0].Arguments, &args); err != nil {
		t.Fatal(err)
	}
	return args.Values
}

// TestOfflineSaysWhatItCouldNotUse: the demo agent claims no proposal
// before the host made one; a refused one is explained value by value in
// the form's order, and the values it could use are proposed on their own.
func TestOfflineSaysWhatItCouldNotUse(t *testing.T) {
	t.Parallel()
	h := append(tripAsked(t), Message{Role: RoleUser, Content: "travelers: 40, start: tomorrow, destination: Oslo"})
	turn := complete(t, h)
	// Said before the host's answer, and the last word when the proposal is
	// made: what was read, never that a proposal exists.
	if strings.Contains(turn.Content, "confirm") || strings.Contains(turn.Content, "I'll propose") ||
		!strings.Contains(turn.Content, `I read destination: Oslo, start: tomorrow, travelers: 40 for "Plan the trip"; if it fits, it shows as a proposal.`) {
		t.Fatalf("the proposing turn says %q", turn.Content)
	}
	if v := resolveValues(t, turn); len(v) != 3 {
		t.Fatalf("proposed %v", v)
	}
	refused := `{"ok":false,"error":{"code":"INPUT_REPLY_INVALID","message":"the proposed values are invalid","details":{"problems":[
		{"path":"/values/start","message":"Start date is not a valid date (YYYY-MM-DD)"},
		{"path":"/values/travelers","message":"Travellers must be at most 12"}]}}}`
	h, next := resolved(t, h, turn, refused)
	say := next.Content
	for _, want := range []string{"travelers: 40 — Travellers must be at most 12", "start: tomorrow — Start date is not a valid date (YYYY-MM-DD)", `"Plan the trip"`} {
		if !strings.Contains(say, want) {
			t.Fatalf("%q does not say %q", say, want)
		}
	}
	if strings.Index(say, "start:") > strings.Index(say, "travelers:") {
		t.Fatalf("not in the form's order: %q", say)
	}
	if v := resolveValues(t, next); len(v) != 1 || v["destination"] != "Oslo" {
		t.Fatalf("the rest proposed: %v", v)
	}
	if strings.Contains(say, "I'll propose") || !strings.Contains(say, "The rest (destination: Oslo) shows as a proposal if it fits.") {
		t.Fatalf("the rest is announced as %q", say)
	}
	_, last := resolved(t, h, next, `{"ok":true,"requestId":"rq_1","confirmationRequired":true,"proposalId":"prop_1"}`)
	if len(last.ToolCalls) != 0 || !strings.Contains(last.Content, "confirm the proposal") {
		t.Fatalf("after the proposal: %+v", last)
	}

	// Nothing usable: it says so and proposes nothing.
	h = append(tripAsked(t), Message{Role: RoleUser, Content: "travelers: 40"})
	_, next = resolved(t, h, complete(t, h), `{"ok":false,"error":{"code":"INPUT_REPLY_INVALID","message":"invalid","details":{"problems":[
		{"path":"/values/travelers","message":"Travellers must be at most 12"}]}}}`)
	if len(next.ToolCalls) != 0 || !strings.Contains(next.Content, "travelers: 40 — Travellers must be at most 12") ||
		strings.Contains(next.Content, "confirm") {
		t.Fatalf("nothing usable: %+v", next)
	}
}

// TestOfflineItineraryCountsTravellers: the words agree with their number.
func TestOfflineItineraryCountsTravellers(t *testing.T) {
	t.Parallel()
	for n, want := range map[string]string{"1": "for 1 traveller,", "2": "for 2 travellers,"} {
		h := append(tripAsked(t), Message{Role: RoleUser, Content: `{"status":"input_received","requestId":"rq_1","values":{"destination":"Oslo","start":"2026-05-01","travelers":` + n + `,"transport":"train"}}`})
		if msg := complete(t, h); !strings.Contains(msg.Content, want) {
			t.Errorf("%s travellers: %q", n, msg.Content)
		}
	}
}
