package forms

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A draft as the form saves it (number text as typed, cleared fields as
// "") is not an answer; DraftAnswer is the part of it that is, and that
// part goes through the answer path (JSON, ParseValues, Normalize)
// unchanged.
func TestDraftAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		supplied Values
		draft    Values
		want     Values
		problems []string
	}{
		{"untouched and cleared fields are left out",
			nil,
			Values{"destination": "Oslo", "start": "", "travelers": "3", "budget": "", "transport": "train",
				"interests": []string{}, "notes": "", "ok": false},
			Values{"destination": "Oslo", "travelers": int64(3), "transport": "train", "ok": false}, nil},
		{"number text is read as the form reads it",
			nil,
			Values{"budget": "12.5", "travelers": "2", "interests": []any{"hiking", "food"}},
			Values{"budget": 12.5, "travelers": int64(2), "interests": []string{"food", "hiking"}}, nil},
		{"values that are no valid answer yet are named",
			nil,
			Values{"travelers": "3a", "start": "2026-02-30", "budget": "-1e999", "notes": "ok"},
			Values{"notes": "ok"}, []string{"/values/travelers", "/values/start", "/values/budget"}},
		{"out of range is named",
			nil,
			Values{"travelers": "13", "destination": "Bergen"},
			Values{"destination": "Bergen"}, []string{"/values/travelers"}},
		{"supplied fields are not asked",
			Values{"destination": "Rome"},
			Values{"destination": "Oslo", "transport": "car"},
			Values{"transport": "car"}, nil},
		{"an option the form does not offer is no value",
			nil,
			Values{"transport": "boat"},
			Values{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, probs := DraftAnswer(travelDef, tc.supplied, tc.draft)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("values = %#v, want %#v", got, tc.want)
			}
			var paths []string
			for _, p := range probs {
				paths = append(paths, p.Path)
			}
			if !sameSet(paths, tc.problems) {
				t.Errorf("problems = %v, want paths %v", probs, tc.problems)
			}
			raw, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			parsed, perr := ParseValues(raw, "/values")
			again, nerr := Normalize(travelDef, parsed, "/values")
			if len(perr)+len(nerr) > 0 || !reflect.DeepEqual(again, got) {
				t.Errorf("sent as JSON %s: %v %v, read back %#v", raw, perr, nerr, again)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		seen[s]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
