package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

func TestGoldenFieldTypes(t *testing.T) {
	long := Field{Name: "city", Type: Select, Label: "City", Required: true}
	for _, c := range []string{"Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Geneva",
		"Hanoi", "Istanbul", "Jakarta", "Kyoto", "Lima", "Madrid", "Nairobi"} {
		long.Options = append(long.Options, Option{Value: strings.ToLower(c), Label: c})
	}
	cases := []struct {
		name    string
		field   Field
		prefill any
		keys    []tea.Msg
	}{
		{"text", Field{Name: "destination", Type: Text, Label: "Destination", Description: "Where to?", Placeholder: "a city", Required: true}, nil, nil},
		{"text_suggested", Field{Name: "destination", Type: Text, Label: "Destination", Required: true}, "Shanghai", nil},
		{"text_date", Field{Name: "start", Type: Text, Label: "Start", Format: "date", Required: true}, nil, nil},
		{"text_email", Field{Name: "mail", Type: Text, Label: "Email", Format: "email", MaxLength: ip(80)}, nil, nil},
		{"textarea", Field{Name: "notes", Type: Textarea, Label: "Notes", Description: "Anything else"}, "line one\nline two", nil},
		{"number", Field{Name: "budget", Type: Number, Label: "Budget", Min: fp(0)}, nil, nil},
		{"integer_range", Field{Name: "travelers", Type: Integer, Label: "Travelers", Min: fp(1), Max: fp(12), Required: true}, int64(2), nil},
		{"integer_bad_text", Field{Name: "travelers", Type: Integer, Label: "Travelers", Min: fp(1), Max: fp(12)}, nil, []tea.Msg{typed("12a")}},
		{"boolean", Field{Name: "ok", Type: Boolean, Label: "Insurance", Description: "Add travel insurance?"}, true, nil},
		{"boolean_unanswered", Field{Name: "ok", Type: Boolean, Label: "Insurance", Description: "Add travel insurance?"}, nil, nil},
		{"select", Field{Name: "transport", Type: Select, Label: "Transport", Required: true,
			Options: []Option{{Value: "train", Label: "Train"}, {Value: "plane", Label: "Plane"}, {Value: "car", Label: "Car"}}}, "car", nil},
		{"select_long", long, "madrid", nil},
		{"multiselect", Field{Name: "interests", Type: Multiselect, Label: "Interests", MaxItems: ip(3),
			Options: []Option{{Value: "food", Label: "Food"}, {Value: "museums", Label: "Museums"}, {Value: "hiking", Label: "Hiking"}, {Value: "beach", Label: "Beach"}}},
			[]string{"food", "hiking"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			def := Definition{Title: "Golden", Fields: []Field{tc.field}}
			var prefill Values
			if tc.prefill != nil {
				prefill = Values{tc.field.Name: tc.prefill}
			}
			l := start(def, nil, prefill, nil)
			for _, k := range tc.keys {
				keys(l, k)
			}
			t.Run("field_"+tc.name, func(t *testing.T) { golden.RequireEqual(t, []byte(l.View())) })
		})
	}
}

func TestGoldenPagedForm(t *testing.T) {
	l := start(travelDef, Values{"ok": true}, Values{"destination": "Shanghai"}, nil)
	t.Run("form_travel_page1", func(t *testing.T) { golden.RequireEqual(t, []byte(l.View())) })
	for i := 0; i < 4; i++ {
		pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
	}
	t.Run("form_travel_page2", func(t *testing.T) { golden.RequireEqual(t, []byte(l.View())) })
}

func TestGoldenReview(t *testing.T) {
	values := Values{"destination": "Shang\x1b[2Jhai", "start": "2026-05-01", "budget": 1500.5,
		"transport": "train", "interests": []string{"food", "hiking"}, "notes": "window seat\naisle is fine"}
	t.Run("review", func(t *testing.T) {
		golden.RequireEqual(t, []byte(Review(travelDef, Values{"travelers": int64(2)}, values, 60)))
	})
}

func TestGoldenReviewMissing(t *testing.T) {
	def := Definition{Title: "Deploy\x1b]0;owned\x07", Fields: []Field{
		{Name: "environment", Type: Select, Label: "Environment", Required: true, Options: []Option{{Value: "production"}, {Value: "staging"}}},
		{Name: "version", Type: Text, Label: "Version", Required: true},
		{Name: "dry", Type: Boolean, Label: "Dry run\u202e"},
		{Name: "notify", Type: Multiselect, Label: "Notify", Options: []Option{{Value: "ops", Label: "Ops team"}}},
	}}
	got := Review(def, Values{"version": "1.2.3"}, Values{"dry": false}, 0)
	if strings.ContainsAny(got, "\x1b\x07\u202e") {
		t.Fatalf("raw control in review: %q", got)
	}
	t.Run("review_missing", func(t *testing.T) { golden.RequireEqual(t, []byte(got)) })
}
