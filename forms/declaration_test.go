package forms

import (
	"fmt"
	"strings"
	"testing"
)

// decl builds a declaration around one fields array; extra is spliced in
// as further top-level members (with a leading comma).
func decl(fields, extra string) string {
	return `{"requestKey":"k-1","source":{"kind":"dynamic","definition":{"title":"T","fields":` + fields + `}}` + extra + `}`
}

const textField = `{"name":"a","type":"text"}`

// declCase is one rule: the input and the JSON Pointer paths of the problems
// it must produce (every listed path must appear; none may be missing).
type declCase struct {
	name  string
	in    string
	paths []string
	msg   string // a substring of some problem's message
}

var declCases = []declCase{
	// the top level
	{"not JSON", `{"requestKey":`, []string{""}, "not valid JSON"},
	{"trailing data", decl(`[`+textField+`]`, ``) + `{}`, []string{""}, "more after the JSON value"},
	{"empty input", ``, []string{""}, "empty"},
	{"top level array", `[1,2]`, []string{""}, "must be an object"},
	{"top level string", `"x"`, []string{""}, "must be an object"},
	{"unknown top-level keys", decl(`[`+textField+`]`, `,"zeta":1,"alpha":2`), []string{""}, `"alpha", "zeta"`},
	{"duplicate top-level key", decl(`[`+textField+`]`, `,"requestKey":"k-2"`), []string{"/requestKey"}, "duplicate key"},
	{"duplicate key in field", decl(`[{"name":"a","type":"text","name":"b"}]`, ``), []string{"/source/definition/fields/0/name"}, "duplicate key"},
	{"invalid UTF-8", decl(`[{"name":"a","type":"text","label":"caf`+"\xff"+`"}]`, ``), []string{"/source/definition/fields/0/label"}, "UTF-8"},
	{"too deep", decl(`[`+textField+`]`, `,"context":{"a":`+strings.Repeat(`[`, 40)+strings.Repeat(`]`, 40)+`}`), []string{"/context/a/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"}, "nesting"},
	{"input too large", `{"reason":"` + strings.Repeat("x", MaxInputSize) + `"}`, []string{""}, "limit"},

	// requestKey
	{"requestKey missing", `{"source":{"kind":"dynamic","definition":{"fields":[` + textField + `]}}}`, []string{"/requestKey"}, "required"},
	{"requestKey empty", strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, `""`, 1), []string{"/requestKey"}, "1–128"},
	{"requestKey too long", strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, `"`+strings.Repeat("k", 129)+`"`, 1), []string{"/requestKey"}, "129 characters long; the limit is 128"},
	{"requestKey bad char", strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, `"k 1"`, 1), []string{"/requestKey"}, "A–Z"},
	{"requestKey number", strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, `7`, 1), []string{"/requestKey"}, "string"},

	// strings
	{"reason too long", decl(`[`+textField+`]`, `,"reason":"`+strings.Repeat("é", MaxString+1)+`"`), []string{"/reason"}, "4097"},
	{"label too long", decl(`[{"name":"a","type":"text","label":"`+strings.Repeat("x", MaxString+1)+`"}]`, ``), []string{"/source/definition/fields/0/label"}, "limit"},
	{"title too long", strings.Replace(decl(`[`+textField+`]`, ``), `"T"`, `"`+strings.Repeat("x", MaxString+1)+`"`, 1), []string{"/source/definition/title"}, "limit"},
	{"option too long", decl(`[{"name":"a","type":"select","options":["`+strings.Repeat("x", MaxString+1)+`"]}]`, ``), []string{"/source/definition/fields/0/options/0"}, "limit"},
	{"label not a string", decl(`[{"name":"a","type":"text","label":5}]`, ``), []string{"/source/definition/fields/0/label"}, "string"},

	// source
	{"source missing", `{"requestKey":"k"}`, []string{"/source"}, "required"},
	{"source not object", `{"requestKey":"k","source":[]}`, []string{"/source"}, "object"},
	{"kind missing", `{"requestKey":"k","source":{}}`, []string{"/source/kind"}, "required"},
	{"unknown kind", `{"requestKey":"k","source":{"kind":"magic"}}`, []string{"/source/kind"}, "unknown source kind"},
	{"unknown source key", `{"requestKey":"k","source":{"kind":"template","template":"t","url":"x"}}`, []string{"/source"}, `"url"`},
	{"dynamic without definition", `{"requestKey":"k","source":{"kind":"dynamic"}}`, []string{"/source/definition"}, "needs definition"},
	{"dynamic with template too", `{"requestKey":"k","source":{"kind":"dynamic","template":"x","definition":{"fields":[` + textField + `]}}}`, []string{"/source/template"}, "does not belong"},
	{"unknown template", `{"requestKey":"k","source":{"kind":"template","template":"nope"}}`, []string{"/source/template"}, "unknown template"},
	{"definition not object", `{"requestKey":"k","source":{"kind":"dynamic","definition":"x"}}`, []string{"/source/definition"}, "object"},
	{"unknown definition key", `{"requestKey":"k","source":{"kind":"dynamic","definition":{"fields":[` + textField + `],"steps":1}}}`, []string{"/source/definition"}, `"steps"`},

	// fields
	{"no fields", decl(`[]`, ``), []string{"/source/definition/fields"}, "at least one"},
	{"fields missing", `{"requestKey":"k","source":{"kind":"dynamic","definition":{}}}`, []string{"/source/definition/fields"}, "required"},
	{"fields not array", decl(`{}`, ``), []string{"/source/definition/fields"}, "array"},
	{"33 fields", decl(manyFields(33), ``), []string{"/source/definition/fields"}, "limit is 32"},
	{"field not object", decl(`["a"]`, ``), []string{"/source/definition/fields/0"}, "object"},
	{"unknown field keys", decl(`[{"name":"a","type":"text","colour":"red","size":1}]`, ``), []string{"/source/definition/fields/0"}, `"colour", "size"`},
	{"name missing", decl(`[{"type":"text"}]`, ``), []string{"/source/definition/fields/0/name"}, "required"},
	{"bad name", decl(`[{"name":"1a","type":"text"}]`, ``), []string{"/source/definition/fields/0/name"}, "must match"},
	{"name too long", decl(`[{"name":"a`+strings.Repeat("b", 64)+`","type":"text"}]`, ``), []string{"/source/definition/fields/0/name"}, "must match"},
	{"control char in name", decl(`[{"name":"a\u0007","type":"text"}]`, ``), []string{"/source/definition/fields/0/name"}, "must match"},
	{"duplicate names", decl(`[`+textField+`,`+textField+`]`, ``), []string{"/source/definition/fields/1/name"}, "duplicate field name"},
	{"type missing", decl(`[{"name":"a"}]`, ``), []string{"/source/definition/fields/0/type"}, "required"},
	{"unknown type", decl(`[{"name":"a","type":"color"}]`, ``), []string{"/source/definition/fields/0/type"}, "unknown field type"},
	{"required not bool", decl(`[{"name":"a","type":"text","required":"yes"}]`, ``), []string{"/source/definition/fields/0/required"}, "true or false"},

	// options
	{"select without options", decl(`[{"name":"a","type":"select"}]`, ``), []string{"/source/definition/fields/0/options"}, "at least one option"},
	{"multiselect empty options", decl(`[{"name":"a","type":"multiselect","options":[]}]`, ``), []string{"/source/definition/fields/0/options"}, "at least one option"},
	{"101 options", decl(`[{"name":"a","type":"select","options":`+manyOptions(101)+`}]`, ``), []string{"/source/definition/fields/0/options"}, "limit is 100"},
	{"duplicate option values", decl(`[{"name":"a","type":"select","options":["x",{"value":"x","label":"X"}]}]`, ``), []string{"/source/definition/fields/0/options/1"}, "duplicate option"},
	{"options on text", decl(`[{"name":"a","type":"text","options":["x"]}]`, ``), []string{"/source/definition/fields/0/options"}, "only to select"},
	{"option wrong type", decl(`[{"name":"a","type":"select","options":[3]}]`, ``), []string{"/source/definition/fields/0/options/0"}, "string or {value, label}"},
	{"option object without value", decl(`[{"name":"a","type":"select","options":[{"label":"X"}]}]`, ``), []string{"/source/definition/fields/0/options/0/value"}, "needs a value"},
	{"option unknown key", decl(`[{"name":"a","type":"select","options":[{"value":"x","icon":"y"}]}]`, ``), []string{"/source/definition/fields/0/options/0"}, `"icon"`},
	{"empty option value", decl(`[{"name":"a","type":"select","options":[""]}]`, ``), []string{"/source/definition/fields/0/options/0"}, "empty"},
	{"control char in option", decl(`[{"name":"a","type":"select","options":["a\u001b[2J"]}]`, ``), []string{"/source/definition/fields/0/options/0"}, "control character"},

	// numeric bounds
	{"min greater than max", decl(`[{"name":"a","type":"number","min":5,"max":1}]`, ``), []string{"/source/definition/fields/0/min"}, "greater than max"},
	{"min on text", decl(`[{"name":"a","type":"text","min":1}]`, ``), []string{"/source/definition/fields/0/min"}, "only to number"},
	{"max on select", decl(`[{"name":"a","type":"select","options":["x"],"max":1}]`, ``), []string{"/source/definition/fields/0/max"}, "only to number"},
	{"min as string", decl(`[{"name":"a","type":"number","min":"1"}]`, ``), []string{"/source/definition/fields/0/min"}, "must be a number"},
	{"min overflows", decl(`[{"name":"a","type":"number","min":1e400}]`, ``), []string{"/source/definition/fields/0/min"}, "finite"},

	// lengths
	{"minLength greater than maxLength", decl(`[{"name":"a","type":"text","minLength":5,"maxLength":2}]`, ``), []string{"/source/definition/fields/0/minLength"}, "greater than"},
	{"negative minLength", decl(`[{"name":"a","type":"text","minLength":-1}]`, ``), []string{"/source/definition/fields/0/minLength"}, "negative"},
	{"negative maxLength", decl(`[{"name":"a","type":"textarea","maxLength":-3}]`, ``), []string{"/source/definition/fields/0/maxLength"}, "negative"},
	{"fractional maxLength", decl(`[{"name":"a","type":"text","maxLength":2.5}]`, ``), []string{"/source/definition/fields/0/maxLength"}, "whole"},
	{"maxLength above limit", decl(`[{"name":"a","type":"text","maxLength":5000}]`, ``), []string{"/source/definition/fields/0/maxLength"}, "string limit"},
	{"minLength on number", decl(`[{"name":"a","type":"number","minLength":1}]`, ``), []string{"/source/definition/fields/0/minLength"}, "only to text"},

	// pattern and format
	{"pattern does not compile", decl(`[{"name":"a","type":"text","pattern":"(ab"}]`, ``), []string{"/source/definition/fields/0/pattern"}, "does not compile"},
	{"pattern too complex", decl(`[{"name":"a","type":"text","pattern":"`+strings.Repeat(`[a-z]{1000}`, 3)+`"}]`, ``), []string{"/source/definition/fields/0/pattern"}, "too complex"},
	{"pattern on boolean", decl(`[{"name":"a","type":"boolean","pattern":"x"}]`, ``), []string{"/source/definition/fields/0/pattern"}, "only to text"},
	{"unknown format", decl(`[{"name":"a","type":"text","format":"phone"}]`, ``), []string{"/source/definition/fields/0/format"}, "unknown format"},
	{"format on textarea", decl(`[{"name":"a","type":"textarea","format":"email"}]`, ``), []string{"/source/definition/fields/0/format"}, "only to text"},

	// items
	{"minItems greater than maxItems", decl(`[{"name":"a","type":"multiselect","options":["x","y"],"minItems":2,"maxItems":1}]`, ``), []string{"/source/definition/fields/0/minItems"}, "greater than"},
	{"minItems above options", decl(`[{"name":"a","type":"multiselect","options":["x"],"minItems":2}]`, ``), []string{"/source/definition/fields/0/minItems"}, "more than the 1 option"},
	{"negative maxItems", decl(`[{"name":"a","type":"multiselect","options":["x"],"maxItems":-1}]`, ``), []string{"/source/definition/fields/0/maxItems"}, "negative"},
	{"minItems on select", decl(`[{"name":"a","type":"select","options":["x"],"minItems":1}]`, ``), []string{"/source/definition/fields/0/minItems"}, "only to multiselect"},

	// prefill and supplied
	{"prefill unknown field", decl(`[`+textField+`]`, `,"prefill":{"b":"x"}`), []string{"/prefill/b"}, "unknown field"},
	{"supplied unknown field", decl(`[`+textField+`]`, `,"supplied":{"b":"x"}`), []string{"/supplied/b"}, "unknown field"},
	{"prefill wrong type", decl(`[`+textField+`]`, `,"prefill":{"a":5}`), []string{"/prefill/a"}, "must be a string"},
	{"prefill not object", decl(`[`+textField+`]`, `,"prefill":[1]`), []string{"/prefill"}, "object"},
	{"prefill option not listed", decl(`[{"name":"a","type":"select","options":["x"]}]`, `,"prefill":{"a":"y"}`), []string{"/prefill/a"}, "not one of the options"},
	{"supplied number as string", decl(`[{"name":"a","type":"integer"}]`, `,"supplied":{"a":"5"}`), []string{"/supplied/a"}, "must be a number"},
	{"supplied integer with fraction", decl(`[{"name":"a","type":"integer"},`+textField2+`]`, `,"supplied":{"a":5.5}`), []string{"/supplied/a"}, "whole number"},
	{"prefill out of range", decl(`[{"name":"a","type":"integer","min":1,"max":12}]`, `,"prefill":{"a":13}`), []string{"/prefill/a"}, "at most 12"},
	{"prefill too short", decl(`[{"name":"a","type":"text","minLength":3}]`, `,"prefill":{"a":"ab"}`), []string{"/prefill/a"}, "at least 3"},
	{"prefill pattern", decl(`[{"name":"a","type":"text","pattern":"^[0-9]+$"}]`, `,"prefill":{"a":"ab"}`), []string{"/prefill/a"}, "pattern"},
	{"prefill format", decl(`[{"name":"a","type":"text","format":"date"}]`, `,"prefill":{"a":"2026-13-01"}`), []string{"/prefill/a"}, "date"},
	{"prefill too many items", decl(`[{"name":"a","type":"multiselect","options":["x","y"],"maxItems":1}]`, `,"prefill":{"a":["x","y"]}`), []string{"/prefill/a"}, "at most 1"},
	{"prefill item not listed", decl(`[{"name":"a","type":"multiselect","options":["x"]}]`, `,"prefill":{"a":["z"]}`), []string{"/prefill/a/0"}, "not one of"},
	{"prefill control chars", decl(`[`+textField+`]`, `,"prefill":{"a":"x\u001b]0;pwn\u0007"}`), []string{"/prefill/a"}, "control character"},
	{"supplied bool wrong", decl(`[{"name":"a","type":"boolean"},`+textField2+`]`, `,"supplied":{"a":"true"}`), []string{"/supplied/a"}, "true or false"},

	// context and expiresAt
	{"context not object", decl(`[`+textField+`]`, `,"context":[1]`), []string{"/context"}, "object"},
	{"context too large", decl(`[`+textField+`]`, `,"context":{"a":"`+strings.Repeat("x", MaxContext)+`"}`), []string{"/context"}, "limit is 16384"},
	{"expiresAt not RFC 3339", decl(`[`+textField+`]`, `,"expiresAt":"tomorrow"`), []string{"/expiresAt"}, "RFC 3339"},
	{"expiresAt number", decl(`[`+textField+`]`, `,"expiresAt":5`), []string{"/expiresAt"}, "RFC 3339"},
}

const textField2 = `{"name":"b","type":"text"}`

func manyFields(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"name":"f%d","type":"text"}`, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func manyOptions(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"o%d"`, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestParseDeclarationRules(t *testing.T) {
	t.Parallel()
	for _, tc := range declCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, probs := ParseDeclaration([]byte(tc.in), nil)
			if d != nil || len(probs) == 0 {
				t.Fatalf("accepted; want problems at %v", tc.paths)
			}
			assertProblems(t, probs, tc.paths, tc.msg)
		})
	}
}

func assertProblems(t *testing.T, probs []Problem, paths []string, msg string) {
	t.Helper()
	got := map[string]bool{}
	found := msg == ""
	for _, p := range probs {
		got[p.Path] = true
		found = found || strings.Contains(p.Message, msg)
	}
	for _, want := range paths {
		if !got[want] {
			t.Errorf("no problem at %q; got %v", want, probs)
		}
	}
	if !found {
		t.Errorf("no message containing %q; got %v", msg, probs)
	}
}

func TestParseDeclarationListsEveryProblem(t *testing.T) {
	in := `{"requestKey":"","zz":1,"source":{"kind":"dynamic","definition":{"fields":[
		{"name":"1","type":"text","min":3},
		{"name":"b","type":"select"},
		{"name":"c","type":"number","min":5,"max":1}]}},
		"prefill":{"nope":1},"expiresAt":"soon"}`
	_, probs := ParseDeclaration([]byte(in), nil)
	assertProblems(t, probs, []string{"", "/requestKey", "/source/definition/fields/0/name",
		"/source/definition/fields/0/min", "/source/definition/fields/1/options",
		"/source/definition/fields/2/min", "/prefill/nope", "/expiresAt"}, "")
}

// The declaration checks docs/input-requests.md adds: a lone surrogate escape is
// refused like invalid UTF-8, an integer's bounds are whole, and a hostile
// input's problems are bounded.
func TestDeclarationHardening(t *testing.T) {
	cases := []declCase{
		{"lone high surrogate", decl(`[{"name":"a","type":"text","label":"x\ud800y"}]`, ``), []string{"/source/definition/fields/0/label"}, `unpaired surrogate \ud800`},
		{"lone low surrogate", decl(`[`+textField+`]`, `,"prefill":{"a":"\udc01"}`), []string{"/prefill/a"}, "unpaired surrogate"},
		{"high then not low", decl(`[`+textField+`]`, `,"reason":"\ud83d\u0041"`), []string{"/reason"}, "unpaired surrogate"},
		{"surrogate in a key", decl(`[`+textField+`]`, `,"context":{"\udfff":1}`), []string{"/context"}, "unpaired surrogate"},
		{"fractional integer min", decl(`[{"name":"a","type":"integer","min":1.5}]`, ``), []string{"/source/definition/fields/0/min"}, "whole number, not 1.5"},
		{"fractional integer max", decl(`[{"name":"a","type":"integer","max":2.25}]`, ``), []string{"/source/definition/fields/0/max"}, "whole number"},
		{"fractional schema minimum", schemaDecl(`{"type":"object","properties":{"n":{"type":"integer","minimum":0.5}}}`, ``), []string{"/source/requestedSchema/properties/n/minimum"}, "whole number"},
	}
	for _, tc := range cases {
		d, probs := ParseDeclaration([]byte(tc.in), nil)
		if d != nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		assertProblems(t, probs, tc.paths, tc.msg)
	}
	// Paired surrogates are one character; escaped backslashes are not escapes.
	for _, ok := range []string{`"😀 \ud83d\ude00"`, `"\\ud800"`, `"a\\\\\ud83d\ude00"`} {
		if _, probs := ParseDeclaration([]byte(decl(`[`+textField+`]`, `,"reason":`+ok)), nil); len(probs) > 0 {
			t.Errorf("%s refused: %v", ok, probs)
		}
	}
	if _, probs := ParseValues([]byte(`{"a":"\ud800"}`), "/values"); len(probs) != 1 || probs[0].Path != "/values/a" {
		t.Errorf("answer with a lone surrogate: %v", probs)
	}
	if _, probs := ParseDeclaration([]byte(decl(`[{"name":"a","type":"integer","min":1,"max":12.0}]`, ``)), nil); len(probs) > 0 {
		t.Errorf("whole bounds refused: %v", probs)
	}
}

// 100,000 unknown keys give a bounded list: the first problems, a count of
// the rest, and no message that names every key.
func TestProblemsAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"requestKey":"k","source":{"kind":"dynamic","definition":{"fields":[`)
	for i := 0; i < 200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"1bad%d","type":"nope"}`, i)
	}
	b.WriteString(`]}}`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, `,"k%d":1`, i)
	}
	b.WriteString(`}`)
	_, probs := ParseDeclaration([]byte(b.String()), nil)
	if len(probs) != MaxProblems+1 {
		t.Fatalf("%d problems, want %d listed and a count", len(probs), MaxProblems)
	}
	last := probs[len(probs)-1]
	// 1 unknown-keys problem, 200 fields × (name, type) and the 33-field limit.
	if want := 1 + 400 + 1 - MaxProblems; last.More != want || last.Path != "" || !strings.Contains(last.Message, "352 more") {
		t.Fatalf("count entry %+v, want More=%d", last, want)
	}
	size := 0
	for _, p := range probs {
		size += len(p.Message) + len(p.Path)
	}
	if size > 16<<10 {
		t.Fatalf("problems take %d bytes", size)
	}
	if !strings.Contains(probs[0].Message, `"k0", "k1", "k10"`) || !strings.Contains(probs[0].Message, "and 99,990 more") {
		t.Fatalf("unknown keys: %.300s", probs[0].Message)
	}
	// A bounded list bounds again when joined with another.
	var again problems
	again.merge(append(probs, Problem{Path: "/values/x", Message: "one more"}))
	joined := again.result()
	if n := joined[len(joined)-1].More; len(joined) != MaxProblems+1 || n != last.More+1 {
		t.Fatalf("joined: %d entries, count %d", len(joined), n)
	}
}

// With no form to check them against (an unknown template), prefill and
// supplied values add no problems of their own: the template's is the one.
func TestUnknownTemplateIsTheOneProblem(t *testing.T) {
	_, probs := ParseDeclaration([]byte(`{"requestKey":"k","source":{"kind":"template","template":"nope"},"supplied":{"a":1},"prefill":{"b":2}}`), nil)
	if len(probs) != 1 || probs[0].Path != "/source/template" {
		t.Fatalf("problems %v", probs)
	}
	_, probs = ParseDeclaration([]byte(`{"requestKey":"k","source":{"kind":"template","template":"nope"},"supplied":[1]}`), nil)
	assertProblems(t, probs, []string{"/source/template", "/supplied"}, "object")
}

// One mistake is one problem, and it names what to fix: a request key's
// wrong characters rather than its (fine) length; a property whose schema
// cannot be read is refused for that alone, not also for having no type.
func TestEachMistakeIsOneProblemThatNamesIt(t *testing.T) {
	schema := func(prop string) string {
		return `{"requestKey":"k","source":{"kind":"schema","requestedSchema":{"type":"object","properties":{"a":` + prop + `},"required":["a"]}}}`
	}
	withKey := func(key string) string { return strings.Replace(decl(`[`+textField+`]`, ``), `"k-1"`, key, 1) }
	const keyChars = "requestKey may use only A–Z a–z 0–9 . _ : - — "
	cases := []struct {
		name, in string
		want     []Problem
	}{
		{"key with a space and a !", withKey(`"bad key!"`), []Problem{{Path: "/requestKey", Message: keyChars + "space and '!' are not allowed (the first at character 4)"}}},
		{"key with one wrong character, twice", withKey(`"a/b/c"`), []Problem{{Path: "/requestKey", Message: keyChars + "'/' is not allowed (the first at character 2)"}}},
		{"key too long", withKey(`"` + strings.Repeat("k", 130) + `"`), []Problem{{Path: "/requestKey", Message: "requestKey is 130 characters long; the limit is 128"}}},
		{"key too long and wrong", withKey(`"` + strings.Repeat("é", 130) + `"`), []Problem{{Path: "/requestKey", Message: keyChars + "'é' is not allowed (the first at character 1); requestKey is 130 characters long; the limit is 128"}}},
		{"key empty", withKey(`""`), []Problem{{Path: "/requestKey", Message: "requestKey is empty; it needs 1–128 characters of A–Z a–z 0–9 . _ : -"}}},
		{"remote $ref", schema(`{"$ref":"https://example.com/s.json"}`), []Problem{{Path: "/source/requestedSchema/properties/a/$ref", Message: `$ref "https://example.com/s.json" is not local: only #/... refs are resolved, nothing is fetched`}}},
		{"dangling $ref", schema(`{"$ref":"#/nope"}`), []Problem{{Path: "/source/requestedSchema/properties/a/$ref", Message: `$ref "#/nope" points at nothing in this schema`}}},
		{"$dynamicRef", schema(`{"$dynamicRef":"#x"}`), []Problem{{Path: "/source/requestedSchema/properties/a/$dynamicRef", Message: "$dynamicRef is not supported: only local $ref (#/...) is"}}},
		{"property not an object", schema(`5`), []Problem{{Path: "/source/requestedSchema/properties/a", Message: "a schema must be an object, not number"}}},
		{"property without type", schema(`{}`), []Problem{{Path: "/source/requestedSchema/properties/a/type", Message: "a property needs a type (string, number, integer, boolean or array)"}}},
		{"property of object type", schema(`{"type":"object"}`), []Problem{{Path: "/source/requestedSchema/properties/a/type", Message: `type "object" is not a primitive the form can ask (string, number, integer, boolean, array of choices)`}}},
		{"field without type", decl(`[{"name":"a"}]`, ``), []Problem{{Path: "/source/definition/fields/0/type", Message: "type is required"}}},
		{"field type not a string", decl(`[{"name":"a","type":5}]`, ``), []Problem{{Path: "/source/definition/fields/0/type", Message: "type must be a string, not number"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := ParseDeclaration([]byte(tc.in), nil)
			if fmt.Sprint(probs) != fmt.Sprint(tc.want) {
				t.Errorf("problems\n got %v\nwant %v", probs, tc.want)
			}
		})
	}
	// A type nobody refused before is still refused once.
	_, probs := ParseDeclaration([]byte(decl(`[{"name":"a","type":"colour"}]`, ``)), nil)
	assertProblems(t, probs, []string{"/source/definition/fields/0/type"}, `unknown field type "colour"`)
	if len(probs) != 1 {
		t.Errorf("problems %v", probs)
	}
}
