package chat

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"followup/forms"
	"followup/store"
)

// proposalsJSON writes what encoding the ProposalViews writes, byte for
// byte: for payloads as this package stores them (copied as they are), and
// for any other (through the views).
func TestProposalsJSONIsTheViewsJSON(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	def := &forms.Definition{Title: `Deploy <b>"now"</b> & then`, Description: "line\nbreak\u2028 tab\t é 😀 \x01", Fields: []forms.Field{
		{Name: "env", Type: forms.Select, Label: "Where", Required: true, Options: []forms.Option{{Value: "prod", Label: "Production"}, {Value: "staging"}}},
		{Name: "n", Type: forms.Number, Min: f(-1.5), Max: f(1e21)},
		{Name: "i", Type: forms.Integer, Min: f(0), Max: f(900719925474099)},
		{Name: "t", Type: forms.Text, Placeholder: "a\\b", MinLength: n(1), MaxLength: n(80), Pattern: `^[a-z]+\d*$`, Format: "email"},
		{Name: "m", Type: forms.Multiselect, Options: []forms.Option{{Value: "a"}, {Value: "b"}}, MinItems: n(1), MaxItems: n(2)},
		{Name: "b", Type: forms.Boolean},
		{Name: "x", Type: forms.Textarea, Description: "</script>"},
	}}
	vals := forms.Values{"env": "staging", "n": 0.1, "i": int64(42), "neg": -0.0, "big": 1e300, "b": true,
		"m": []string{"a", "b"}, "t": "<x> & \"y\" \\ \u2028", "none": nil, "nested": map[string]any{"k": []any{1.5, "v"}}}
	fast := []string{
		mustJSON(proposalPayload{Values: vals}),
		mustJSON(proposalPayload{Definition: def, Prefill: vals, Supplied: forms.Values{"env": "prod"}, Template: "deploy"}),
		mustJSON(proposalPayload{Definition: def}),
		mustJSON(proposalPayload{}),
		mustJSON(map[string]any{"definition": def, "prefill": vals}), // as bench/dataset writes them
		mustJSON(map[string]any{"values": map[string]any{}, "definition": nil, "prefill": nil}),
	}
	slow := []string{
		``, `not json`, `{"values":{"a":1}`, `[1,2]`, `null`,
		`{ "values": {"a": 1} }`,                         // whitespace: re-encoding drops it
		`{"values":{"id":12345678901234567}}`,            // rounded through float64 on the way back
		`{"values":{"a":1},"values":{"b":2}}`,            // the last one wins when decoded
		`{"values":"text","definition":5,"prefill":[1]}`, // the wrong types: left out when decoded
		`{"Values":{"a":"x"}}`,                           // names match case-insensitively when decoded
		`{"val\u0075es":{"a":"x"}}`,                      // and unescaped
		`{"PREFILL":{"a":"x"},"prefill":{"b":"y"}}`,
	}
	for i, payload := range append(fast, slow...) {
		for _, p := range []store.Proposal{
			{ID: "pr_1", RequestID: "rq_1", Kind: ProposeResolve, State: store.ProposalPending, BaseDigest: "ab12", Payload: payload},
			{ID: "pr_<2>", RequestID: "rq_\"2\"", Kind: ProposeReplace, State: store.ProposalPending, BaseDigest: "é", Payload: payload},
		} {
			want := mustJSON([]ProposalView{proposalView(p)})
			if i < len(fast) && plain(p.ID) {
				var b strings.Builder
				if !writeProposalJSON(&b, p) {
					t.Errorf("payload %d is not copied: %s", i, payload)
				}
			}
			if got := proposalsJSON([]store.Proposal{p}); got != want {
				t.Errorf("payload %d: %s\n got %s\nwant %s", i, payload, got, want)
			}
		}
	}
	two := []store.Proposal{{ID: "pr_a", Payload: fast[0]}, {ID: "pr_b", Payload: slow[1]}}
	if got, want := proposalsJSON(two), mustJSON([]ProposalView{proposalView(two[0]), proposalView(two[1])}); got != want {
		t.Errorf("two proposals:\n got %s\nwant %s", got, want)
	}
}

// The pending list's entries carry their waiting proposals as the views
// of the request do.
func TestPendingListProposalsAreTheViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, req, _ := fxResolveProposal(t, s)
	l, err := s.PendingItems(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	if _, err := l.WriteTo(&doc); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Requests []struct {
			ID        string          `json:"id"`
			Proposals json.RawMessage `json:"proposals"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(doc.String()), &parsed); err != nil || len(parsed.Requests) != 1 {
		t.Fatalf("document %s: %v", doc.String(), err)
	}
	if got, want := string(parsed.Requests[0].Proposals), mustJSON(req.Proposals); got != want {
		t.Fatalf("proposals in the list:\n  %s\nin the request's view:\n  %s", got, want)
	}
}
