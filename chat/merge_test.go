package chat

import (
	"context"
	"reflect"
	"testing"

	"followup/forms"
)

func TestMergeEdits(t *testing.T) {
	t.Parallel()
	fields := []forms.Field{{Name: "dest"}, {Name: "start"}, {Name: "travelers"}, {Name: "transport"}}
	prefill := forms.Values{"dest": "Shanghai"}
	cases := []struct {
		name               string
		base, mine, theirs forms.Values
		want               forms.Values
		wantTook, wantKept []string
	}{
		{name: "untouched fields take theirs",
			base: forms.Values{}, mine: forms.Values{"dest": "Shanghai", "travelers": ""},
			theirs: forms.Values{"travelers": 4.0, "transport": "plane"},
			want:   forms.Values{"dest": "Shanghai", "travelers": 4.0, "transport": "plane"}, wantTook: []string{"travelers", "transport"}},
		{name: "an edit here stays",
			base: forms.Values{}, mine: forms.Values{"dest": "Paris"}, theirs: forms.Values{"dest": "Oslo"},
			want: forms.Values{"dest": "Paris"}, wantKept: []string{"dest"}},
		{name: "the prefill confirmed is no edit",
			base: forms.Values{}, mine: forms.Values{"dest": "Shanghai"}, theirs: forms.Values{"dest": "Oslo"},
			want: forms.Values{"dest": "Oslo"}, wantTook: []string{"dest"}},
		{name: "a value unchanged since the base is no edit",
			base: forms.Values{"dest": "Paris"}, mine: forms.Values{"dest": "Paris"}, theirs: forms.Values{"dest": "Oslo"},
			want: forms.Values{"dest": "Oslo"}, wantTook: []string{"dest"}},
		{name: "what theirs did not change is mine",
			base: forms.Values{"dest": "Paris"}, mine: forms.Values{"dest": "Rome"}, theirs: forms.Values{"dest": "Paris", "start": "2026-07-01"},
			want: forms.Values{"dest": "Rome", "start": "2026-07-01"}, wantTook: []string{"start"}},
		{name: "number text and numbers read the same",
			base: forms.Values{}, mine: forms.Values{"travelers": "4"}, theirs: forms.Values{"travelers": 4.0},
			want: forms.Values{"travelers": "4"}},
	}
	for _, c := range cases {
		got := MergeEdits(fields, prefill, c.base, c.mine, c.theirs)
		if !reflect.DeepEqual(got.Values, c.want) || !reflect.DeepEqual(got.Took, c.wantTook) || !reflect.DeepEqual(got.Kept, c.wantKept) {
			t.Errorf("%s: got %+v, want %v took %v kept %v", c.name, got, c.want, c.wantTook, c.wantKept)
		}
	}
}

// A draft saved from the values it was edited from does not overwrite one
// stored since by another hand: a proposal accepted meanwhile keeps its
// values in every field the user did not edit, and the user's own edits
// stay.
func TestSaveDraftOverAnAcceptedProposal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_m", fxDecl(t, map[string]any{"requestKey": "m", "source": fxTextDef("T", "a", "b", "c")}))
	if err != nil {
		t.Fatal(err)
	}
	id := res.RequestID
	// The screen saved {a} and goes on from there.
	base := forms.Values{"a": "mine"}
	if err := s.SaveDraft(ctx, Draft{RequestID: id, Revision: 1, Values: base, Edited: true, Base: forms.Values{}}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Request(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Resolve(ctx, id, r.Digest, map[string]any{"b": "proposed", "a": "theirs"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(ctx, Decision{ProposalID: p.ProposalID, Accept: true}, ""); err != nil {
		t.Fatal(err)
	}
	// The screen, not knowing yet, saves its newer values: c typed, a
	// untouched since its last save.
	if err := s.SaveDraft(ctx, Draft{RequestID: id, Revision: 1, Values: forms.Values{"a": "mine", "c": "typed"}, Base: base}); err != nil {
		t.Fatal(err)
	}
	d, _, err := s.LoadDraft(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := (forms.Values{"a": "theirs", "b": "proposed", "c": "typed"}); !reflect.DeepEqual(d.Values, want) || !d.Edited {
		t.Fatalf("draft %+v, want %v (edited)", d, want)
	}
	// Without a base, a save is the caller's whole draft, as before.
	if err := s.SaveDraft(ctx, Draft{RequestID: id, Revision: 1, Values: forms.Values{"c": "only"}}); err != nil {
		t.Fatal(err)
	}
	if d, _, _ := s.LoadDraft(ctx, id, 1); !reflect.DeepEqual(d.Values, forms.Values{"c": "only"}) {
		t.Fatalf("draft %+v", d)
	}
}
