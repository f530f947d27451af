package transcript

import (
	"strings"
	"testing"

	"followup/chat"
	"followup/forms"
)

// An answered card names a choice as the review did (its option's title,
// not the const sent), and a server's question closed with nothing sent
// says so in words.
func TestCardSummaryUsesOptionTitles(t *testing.T) {
	fields := []forms.Field{
		{Name: "hero", Label: "Hero", Type: "select", Options: []forms.Option{{Value: "hero-1", Label: "Superman"}, {Value: "hero-2", Label: "Green Lantern"}}},
		{Name: "fish", Label: "Fish", Type: "multi_select", Options: []forms.Option{{Value: "fish-1", Label: "Tuna"}, {Value: "fish-2", Label: "Salmon"}}},
		{Name: "ok", Label: "Agreed", Type: "confirm"},
	}
	vals := forms.Values{"hero": "hero-2", "fish": []any{"fish-1", "fish-2"}, "ok": true}
	def := forms.Definition{Fields: fields}
	review := forms.Review(def, nil, vals, 0)
	r := chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_1", Title: "Q", State: "answered", Fields: fields},
		Answer: &chat.AnswerView{Values: vals}}
	card := requestCard(r, 200)
	for _, want := range []string{"Hero: Green Lantern", "Fish: Tuna, Salmon", "Agreed: yes"} {
		if !strings.Contains(card, want) || !strings.Contains(review, want) {
			t.Errorf("card %q / review %q: want %q in both", card, review, want)
		}
	}
	if strings.Contains(card, "hero-2") || strings.Contains(card, "fish-1") {
		t.Errorf("card shows the consts the user never saw: %q", card)
	}

	gone := chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_2", Title: "Open a link", State: "expired",
		ClosedReason: chat.ReasonDisconnected, Owner: chat.Owner{Kind: chat.OwnerMCPServer, Name: "everything"}},
		Deliveries: []chat.DeliveryView{{State: "failed", Target: "mcp_server"}}}
	line := requestCard(gone, 200)
	if !strings.HasSuffix(strings.TrimSpace(line), "nothing was sent to everything") {
		t.Errorf("card %q: want it to end 'nothing was sent to everything'", line)
	}

	// A link of -32042 done: nothing is sent, the call is made again.
	link := chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_3", Title: "Open a link", State: "answered", Mode: "url",
		Owner: chat.Owner{Kind: chat.OwnerMCPServer, Name: "everything"}},
		Answer: &chat.AnswerView{Values: forms.Values{}}, Deliveries: []chat.DeliveryView{{State: "delivered", Target: "mcp_server", Action: "accept"}}}
	if line := requestCard(link, 200); strings.Contains(line, "sent to everything: accept") || !strings.Contains(line, "everything was called again") {
		t.Errorf("card of a -32042 link: %q", line)
	}
}

// A cancelled card says who cancelled: the user, or the asker that took
// its question back (input_cancel).
func TestCardSaysWhoCancelled(t *testing.T) {
	for reason, want := range map[string]string{"user_cancelled": "cancelled by you", "agent_cancelled": "withdrawn by Claude Code"} {
		r := chat.RequestView{RequestItem: chat.RequestItem{ID: "rq_1", Title: "Q", State: "cancelled", ClosedReason: reason,
			Owner: chat.Owner{Kind: chat.OwnerMCPClient, Name: "Claude Code"}}}
		if line := requestCard(r, 200); !strings.Contains(line, want) {
			t.Errorf("%s: card %q, want %q", reason, line, want)
		}
	}
}
