package forms

import (
	"strings"
	"testing"
)

// One description of a field's rules, in words: the CLI's pending and show
// list it, and the form's hint under a field is made of the same phrases.
func TestConstraintsSayEveryRule(t *testing.T) {
	cases := []struct {
		f    Field
		want string
	}{
		{Field{Type: Text, Format: "date"}, "text, date (YYYY-MM-DD)"},
		{Field{Type: Text, Format: "date-time"}, "text, date and time (2026-05-01 09:00, or RFC 3339)"},
		{Field{Type: Text, Format: "email", MinLength: ip(3), MaxLength: ip(80)}, "text, email address, 3–80 characters"},
		{Field{Type: Textarea, MaxLength: ip(500)}, "textarea, at most 500 characters"},
		{Field{Type: Text, MaxLength: ip(1)}, "text, at most 1 character"},
		{Field{Type: Text, MinLength: ip(4), MaxLength: ip(4)}, "text, exactly 4 characters"},
		{Field{Type: Multiselect, MinItems: ip(1), MaxItems: ip(1), Options: []Option{{Value: "a"}, {Value: "b"}}}, "any of a | b, exactly 1 choice"},
		{Field{Type: Text, Pattern: "^[A-Z]{3}$\x1b[2J"}, "text, matching ^[A-Z]{3}$"},
		{Field{Type: Integer, Min: fp(1), Max: fp(12)}, "whole number, 1–12"},
		{Field{Type: Number, Min: fp(0.5)}, "number, at least 0.5"},
		{Field{Type: Boolean}, "yes/no (true or false)"},
		{Field{Type: Select, Options: []Option{{Value: "hero-1", Label: "Hero one"}, {Value: "hero-2", Label: "Hero two"}, {Value: "plain"}, {Value: "same", Label: "same"}}},
			"one of Hero one (hero-1) | Hero two (hero-2) | plain | same"},
		{Field{Type: Multiselect, MinItems: ip(1), MaxItems: ip(2), Options: []Option{{Value: "a", Label: "A\u202e"}, {Value: "b"}}},
			"any of A\ufffd (a) | b, 1–2 choices"},
	}
	for _, tc := range cases {
		if got := strings.Join(tc.f.Constraints(), ", "); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.f.Type, got, tc.want)
		}
	}
}

// The hint under a field is the same words, less what the form shows.
func TestHintsUseTheConstraintWords(t *testing.T) {
	def := Definition{Fields: []Field{
		{Name: "start", Type: Text, Label: "Start", Format: "date", MaxLength: ip(10)},
		{Name: "travelers", Type: Integer, Label: "Travelers", Min: fp(1), Max: fp(12)},
	}}
	view := start(def, nil, nil, nil).View()
	for _, want := range []string{"date (YYYY-MM-DD), at most 10 characters", "whole number, 1–12"} {
		if !strings.Contains(view, want) {
			t.Errorf("no hint %q:\n%s", want, view)
		}
	}
}
