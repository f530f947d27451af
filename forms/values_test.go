package forms

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		in    map[string]any
		want  Values
		paths []string
		msg   string
	}{
		{"all types", map[string]any{
			"destination": "Paris", "start": "2026-05-01", "travelers": json.Number("3"), "budget": 12.5,
			"transport": "car", "interests": []any{"hiking", "food"}, "notes": "line 1\nline 2\ttab", "ok": true},
			Values{"destination": "Paris", "start": "2026-05-01", "travelers": int64(3), "budget": 12.5,
				"transport": "car", "interests": []string{"food", "hiking"}, "notes": "line 1\nline 2\ttab", "ok": true}, nil, ""},
		{"go ints", map[string]any{"travelers": 4, "budget": int64(7)}, Values{"travelers": int64(4), "budget": float64(7)}, nil, ""},
		{"integral float for integer", map[string]any{"travelers": 2.0}, Values{"travelers": int64(2)}, nil, ""},
		{"exponent integer", map[string]any{"travelers": json.Number("1e1")}, Values{"travelers": int64(10)}, nil, ""},
		{"empty values are left out", map[string]any{"destination": "", "interests": []string{}}, Values{}, nil, ""},
		{"[]string multiselect", map[string]any{"interests": []string{"museums"}}, Values{"interests": []string{"museums"}}, nil, ""},
		{"unknown field", map[string]any{"nope": 1}, nil, []string{"/values/nope"}, "unknown field"},
		{"number as string", map[string]any{"travelers": "3"}, nil, []string{"/values/travelers"}, "must be a number"},
		{"fraction for integer", map[string]any{"travelers": json.Number("2.5")}, nil, []string{"/values/travelers"}, "whole number"},
		{"NaN", map[string]any{"budget": math.NaN()}, nil, []string{"/values/budget"}, "finite"},
		{"Inf", map[string]any{"budget": math.Inf(1)}, nil, []string{"/values/budget"}, "finite"},
		{"overflow number", map[string]any{"budget": json.Number("1e999")}, nil, []string{"/values/budget"}, "finite"},
		{"integer overflow", map[string]any{"travelers": json.Number("1e30")}, nil, []string{"/values/travelers"}, ""},
		{"hex json.Number", map[string]any{"budget": json.Number("0x1p4")}, nil, []string{"/values/budget"}, "JSON syntax"},
		{"Inf json.Number", map[string]any{"budget": json.Number("Inf")}, nil, []string{"/values/budget"}, "JSON syntax"},
		{"below min", map[string]any{"travelers": 0}, nil, []string{"/values/travelers"}, "at least 1"},
		{"above max", map[string]any{"travelers": 13}, nil, []string{"/values/travelers"}, "at most 12"},
		{"option not listed", map[string]any{"transport": "boat"}, nil, []string{"/values/transport"}, "not one of"},
		{"multiselect not listed", map[string]any{"interests": []any{"food", "golf"}}, nil, []string{"/values/interests/1"}, "not one of"},
		{"multiselect twice", map[string]any{"interests": []any{"food", "food"}}, nil, []string{"/values/interests/1"}, "twice"},
		{"too many items", map[string]any{"interests": []any{"food", "museums", "hiking"}}, nil, []string{"/values/interests"}, "at most 2"},
		{"multiselect of numbers", map[string]any{"interests": []any{1}}, nil, []string{"/values/interests/0"}, "string"},
		{"multiselect scalar", map[string]any{"interests": "food"}, nil, []string{"/values/interests"}, "array"},
		{"bad date", map[string]any{"start": "2026-02-30"}, nil, []string{"/values/start"}, "date"},
		{"bool as string", map[string]any{"ok": "yes"}, nil, []string{"/values/ok"}, "true or false"},
		{"object for text", map[string]any{"destination": map[string]any{"a": 1}}, nil, []string{"/values/destination"}, "string"},
		{"control in text", map[string]any{"destination": "a\u001b[2Jb"}, nil, []string{"/values/destination"}, "control"},
		{"newline in text", map[string]any{"destination": "a\nb"}, nil, []string{"/values/destination"}, "control"},
		{"too long", map[string]any{"notes": strings.Repeat("x", MaxString+1)}, nil, []string{"/values/notes"}, "limit"},
		{"invalid UTF-8", map[string]any{"notes": "\xff"}, nil, []string{"/values/notes"}, "UTF-8"},
		{"huge list", map[string]any{"interests": make([]any, 1000)}, nil, []string{"/values/interests"}, "at most 100"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, probs := Normalize(travelDef, tc.in, "/values")
			if tc.paths == nil {
				if len(probs) > 0 {
					t.Fatalf("problems: %v", probs)
				}
				if !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("got %#v\nwant %#v", got, tc.want)
				}
				return
			}
			assertProblems(t, probs, tc.paths, tc.msg)
		})
	}
}

func TestNormalizeFieldRules(t *testing.T) {
	def := Definition{Fields: []Field{
		{Name: "code", Type: Text, Pattern: "^[A-Z]{3}$", MinLength: ip(3), MaxLength: ip(3)},
		{Name: "mail", Type: Text, Format: "email"},
		{Name: "site", Type: Text, Format: "uri"},
		{Name: "when", Type: Text, Format: "date-time"},
		{Name: "picks", Type: Multiselect, MinItems: ip(2), Options: []Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}},
	}}
	good := map[string]any{"code": "ABC", "mail": "a@example.com", "site": "https://example.com/x", "when": "2026-05-01T09:00:00Z", "picks": []any{"a", "c"}}
	if _, p := Normalize(def, good, ""); len(p) > 0 {
		t.Fatalf("good values refused: %v", p)
	}
	bad := map[string]any{"code": "abcd", "mail": "nope", "site": "not a uri", "when": "2026-05-01 9am", "picks": []any{"a"}}
	_, p := Normalize(def, bad, "")
	assertProblems(t, p, []string{"/code", "/mail", "/site", "/when", "/picks"}, "pattern")
	if len(p) != 6 { // code breaks both the pattern and the length
		t.Errorf("want 6 problems, got %v", p)
	}
}

func TestMissing(t *testing.T) {
	got := Missing(travelDef, Values{"destination": "", "travelers": int64(2)}, Values{"start": "2026-01-01", "interests": []string{}})
	want := []string{"destination", "transport"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	if m := Missing(travelDef, Values{"destination": "x", "start": "x", "travelers": int64(1), "transport": "car"}); m != nil {
		t.Fatalf("nothing missing, got %v", m)
	}
}

func TestParseValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		paths    []string
		msg      string
	}{
		{"duplicate key", `{"a":1,"a":2}`, []string{"/values/a"}, "duplicate"},
		{"not JSON", `{"a":`, []string{"/values"}, "not valid JSON"},
		{"not object", `[1]`, []string{"/values"}, "object"},
		{"deep", strings.Repeat(`{"a":`, 40) + `1` + strings.Repeat(`}`, 40), nil, "nesting"},
		{"invalid UTF-8", "{\"a\":\"\xc3\x28\"}", []string{"/values/a"}, "UTF-8"},
		{"too large", `{"a":"` + strings.Repeat("x", MaxReplySize) + `"}`, []string{"/values"}, "limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, probs := ParseValues([]byte(tc.in), "/values")
			assertProblems(t, probs, tc.paths, tc.msg)
		})
	}
	v, probs := ParseValues([]byte(`{"n": 12.50, "s": "x", "l": ["a"]}`), "/values")
	if len(probs) > 0 || v["n"] != json.Number("12.50") || !reflect.DeepEqual(v["l"], []any{"a"}) {
		t.Fatalf("got %#v %v", v, probs)
	}
}

// Broken JSON is told by line and column, in words, not in the decoder's.
func TestBrokenJSONSaysWhere(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"a":1,`:          "not valid JSON at line 1, column 8: the input ends before the JSON value does",
		`{"a":1}x`:         "not valid JSON at line 1, column 8: more after the JSON value, where nothing should be",
		"{\"a\":\n  }":     "not valid JSON at line 2, column 3: found '}' where a value should start",
		`{"a" 1}`:          `not valid JSON at line 1, column 6: found '1' after a name, where ":" should be`,
		`{"é":1 "b":2}`:    `not valid JSON at line 1, column 8: found '"' after a value, where "," or "}" should be`,
		`{a:1}`:            `not valid JSON at line 1, column 2: found 'a' where a quoted name or "}" should be`,
		`{"a":[1 2]}`:      `not valid JSON at line 1, column 9: found '2' after a value, where "," or "]" should be`,
		"{\"a\":\"x\ny\"}": `not valid JSON at line 1, column 8: found '\n' inside a string, where it must be escaped`,
		`{"a":tru}`:        "not valid JSON at line 1, column 9: found '}' in a word that should be true, false or null",
	} {
		_, probs := ParseValues([]byte(in), "/values")
		if len(probs) != 1 || probs[0].Message != want {
			t.Errorf("%q: %v, want %q", in, probs, want)
		}
	}
}
