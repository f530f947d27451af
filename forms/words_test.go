package forms

import (
	"fmt"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 fields", 1: "1 field", 2: "2 fields", -1: "-1 fields"} {
		if got := fmt.Sprintf("%d %s", n, Plural(n, "field", "fields")); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

// Problems that count something agree with their number.
func TestProblemsAgreeWithTheirNumber(t *testing.T) {
	t.Parallel()
	one := Definition{Fields: []Field{
		{Name: "code", Type: Text, MinLength: ip(1), MaxLength: ip(1)},
		{Name: "tags", Type: Multiselect, MinItems: ip(1), MaxItems: ip(1), Options: []Option{{Value: "a"}, {Value: "b"}}},
	}}
	_, probs := Normalize(one, map[string]any{"code": "ab", "tags": []any{"a", "b"}}, "/values")
	for _, want := range []string{"allows at most 1 character", "allows at most 1 choice"} {
		if !hasMessage(probs, want) {
			t.Errorf("no problem says %q: %v", want, probs)
		}
	}
	_, probs = ParseDeclaration([]byte(`{"requestKey":"k","bogus":1,"source":{"kind":"dynamic","definition":{"title":"T",
		"fields":[{"name":"a","type":"multiselect","minItems":2,"options":[{"value":"x"}]}]}}}`), nil)
	for _, want := range []string{`unknown key "bogus"`, "minItems 2 is more than the 1 option"} {
		if !hasMessage(probs, want) {
			t.Errorf("no problem says %q: %v", want, probs)
		}
	}
	for _, p := range probs {
		if strings.Contains(p.Message, "(s)") {
			t.Errorf("%s: %q", p.Path, p.Message)
		}
	}
}

// hasMessage reports a problem that says s, its last word whole ("1
// character", not "1 characters").
func hasMessage(ps []Problem, s string) bool {
	for _, p := range ps {
		if i := strings.Index(p.Message, s); i >= 0 && !strings.HasPrefix(p.Message[i+len(s):], "s") {
			return true
		}
	}
	return false
}
