package forms

import (
	"slices"
	"strings"

	"github.com/charmbracelet/huh"
)

// A kind is everything forms knows about one field type, in one place: the
// attributes it takes, its declaration rules, how an answer is checked and
// normalised, how it imports from an MCP elicitation schema, the huh
// widget that edits it, how a draft stores it and how the review shows it.
//
// Adding a field type is a FieldType constant, one kind value in its own
// kind_*.go file (with its widget) and its line in registerKinds; nothing
// else in forms switches on the type.
type kind struct {
	typ FieldType

	// attrs are the type-specific attributes the kind takes, of "options",
	// "min", "max", "minLength", "maxLength", "pattern", "format",
	// "minItems", "maxItems". Every kind takes the common ones (name, type,
	// label, description, placeholder, required).
	attrs []string
	// check adds the kind's own declaration rules, beyond which attributes
	// it takes (nil: none).
	check func(p *problems, f Field, i int, at pathFunc)

	// normalize checks one answer value and returns its normal form; ok is
	// false when the value is invalid or is no answer (an empty string).
	normalize func(p *problems, f Field, v any, path string) (any, bool)
	// answered reports that a value counts as an answer (Missing).
	answered func(v any) bool

	// schemaType is the JSON Schema type of the kind's elicitation property
	// ("" when a schema never imports as this kind); claims picks between
	// kinds of one schema type (a string with choices is a select).
	schemaType string
	claims     func(o *object) bool
	fromSchema func(im *importer, o *object, f *Field, path string)

	// widget builds the huh field that edits a slot of this kind.
	widget func(s *slot) huh.Field
	// load draws a prefill value or a draft's value into the slot.
	load func(s *slot, v any)
	// value is the slot's typed current value, if it has one.
	value func(s *slot) (any, bool)
	// draft is what a draft stores for a touched slot, if anything.
	draft func(s *slot) (any, bool)
	// hint is the one-line guidance under the field (nil: none).
	hint func(s *slot) string
	// problem says what is wrong with text typed so far that no value can
	// be read from ("" if fine; nil: the kind has no such text).
	problem func(s *slot) string
	// phrase is the kind of answer in words, for Constraints (nil: the
	// type's name).
	phrase func(f Field) string
	// review renders a value for the review; false falls back to the
	// rendering every kind shares (nil: always that).
	review func(f Field, v any) (string, bool)

	// typed: the user types the value as text (RawText keeps it raw).
	typed bool
	// chooses: the widget always shows a value (a select's cursor, a
	// confirm's button), so moving past the field chooses it.
	chooses bool
}

// kinds is the field-kind table, in the order FieldTypes lists them.
var (
	kinds      []*kind
	kindByType map[FieldType]*kind
)

// registerKinds fills the table at start-up: kinds' functions reach the
// table themselves, so it cannot be a package-level initializer.
func registerKinds() {
	kinds = []*kind{textKind, textareaKind, numberKind, integerKind, booleanKind, selectKind, multiselectKind}
	kindByType = make(map[FieldType]*kind, len(kinds))
	FieldTypes = FieldTypes[:0]
	for _, k := range kinds {
		kindByType[k.typ] = k
		FieldTypes = append(FieldTypes, k.typ)
	}
}

func init() { registerKinds() }

// kindOf is the kind of a field type; nil for a type forms does not know.
func kindOf(t FieldType) *kind { return kindByType[t] }

// takes reports that the kind takes attribute attr; an unknown kind
// (nil) takes none.
func (k *kind) takes(attr string) bool { return k != nil && slices.Contains(k.attrs, attr) }

// kindsTaking names the field types that take attr, for messages:
// "number and integer".
func kindsTaking(attr string) string {
	var names []string
	for _, k := range kinds {
		if k.takes(attr) {
			names = append(names, string(k.typ))
		}
	}
	return joinAnd(names)
}

// TypeList is every field type in a sentence: "text, textarea, …".
func TypeList() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k.typ)
	}
	return strings.Join(names, ", ")
}

// joinAnd joins names as prose: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// answeredValue is what counts as an answer for every kind: a value that
// is not nil, an empty string or an empty selection.
func answeredValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return v != ""
	case []string:
		return len(v) > 0
	case []any:
		return len(v) > 0
	}
	return true
}

// answered reports that v counts as an answer for field f.
func answered(f Field, v any) bool {
	if k := kindOf(f.Type); k != nil && k.answered != nil {
		return k.answered(v)
	}
	return answeredValue(v)
}

// value normalises one answer value through its field's kind; ok is false
// when it is invalid or empty.
func (p *problems) value(f Field, v any, path string) (any, bool) {
	k := kindOf(f.Type)
	if k == nil {
		p.add(path, "field %q has unknown type %q", f.Name, clip(string(f.Type)))
		return nil, false
	}
	start := p.found()
	out, ok := k.normalize(p, f, v, path)
	if !ok {
		return nil, false
	}
	return out, p.found() == start
}
