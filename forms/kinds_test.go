package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Every field type has a complete kind, and the table is the one list of
// types: capabilities and messages come from it.
func TestKindTableIsComplete(t *testing.T) {
	if len(kinds) != len(FieldTypes) {
		t.Fatalf("%d kinds, %d field types", len(kinds), len(FieldTypes))
	}
	for _, typ := range []FieldType{Text, Textarea, Number, Integer, Boolean, Select, Multiselect} {
		k := kindOf(typ)
		if k == nil {
			t.Fatalf("no kind for %s", typ)
		}
		if k.normalize == nil || k.widget == nil || k.load == nil || k.value == nil || k.draft == nil {
			t.Errorf("kind %s lacks a part: %+v", typ, k)
		}
		if k.schemaType != "" && (k.claims == nil || k.fromSchema == nil) {
			t.Errorf("kind %s imports from %s but cannot claim or read it", typ, k.schemaType)
		}
	}
	if got := kindsTaking("min"); got != "number and integer" {
		t.Errorf("kindsTaking(min) = %q", got)
	}
	if got := kindsTaking("options"); got != "select and multiselect" {
		t.Errorf("kindsTaking(options) = %q", got)
	}
}

// Adding a field type is one kind in the table: declarations, answers,
// the form, drafts and the review all follow it.
func TestAddingAFieldKind(t *testing.T) {
	const Slug FieldType = "slug"
	slug := *textKind
	slug.typ = Slug
	slug.attrs = []string{"maxLength"}
	slug.schemaType = ""
	slug.normalize = func(p *problems, f Field, v any, path string) (any, bool) {
		out, ok := normalizeText(false)(p, f, v, path)
		if s, _ := out.(string); ok && strings.ToLower(s) != s {
			p.add(path, "%s must be lower case", f.DisplayLabel())
		}
		return out, ok
	}
	saved := kinds
	t.Cleanup(func() {
		kinds = saved
		registerKinds()
	})
	registerKinds()
	kinds = append(kinds, &slug)
	kindByType[Slug] = &slug
	FieldTypes = append(FieldTypes, Slug)

	d, probs := ParseDeclaration([]byte(decl(`[{"name":"s","type":"slug","maxLength":8}]`, `,"prefill":{"s":"abc"}`)), nil)
	if len(probs) > 0 {
		t.Fatalf("a slug field refused: %v", probs)
	}
	_, probs = ParseDeclaration([]byte(decl(`[{"name":"s","type":"slug","format":"email"}]`, ``)), nil)
	assertProblems(t, probs, []string{"/source/definition/fields/0/format"}, "only to text fields, not slug")
	if _, p := Normalize(d.Definition, map[string]any{"s": "ABC"}, "/values"); len(p) != 1 || !strings.Contains(p[0].Message, "lower case") {
		t.Fatalf("the kind's own answer rule did not run: %v", p)
	}
	l := start(d.Definition, nil, d.Prefill, nil)
	pumpLive(l, []tea.Cmd{l.Update(typed("x"))})
	if v := l.Values()["s"]; v != "x" {
		t.Fatalf("values %v", l.Values())
	}
	if got := Review(d.Definition, nil, l.Values(), 0); !strings.Contains(got, "s: x") {
		t.Fatalf("review:\n%s", got)
	}
	if caps := Capabilities(); caps.FieldTypes[len(caps.FieldTypes)-1] != Slug {
		t.Fatalf("capabilities %v", caps.FieldTypes)
	}
}
