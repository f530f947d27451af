package forms

import (
	"encoding/json"
	"strconv"
	"strings"
)

// A server's property names are its own: "first name" and "e-mail" are
// fine JSON Schema but not field names (validName). The form names such a
// property with a field name made from it — stable (it depends only on the
// schema's property names, in order) and unique — and shows the
// property's own name as its label when it has no title; the answer goes
// back under the server's names (SchemaNames).

// fieldNames maps each property name of a schema, in order, to its field
// name: a valid name is kept; any other becomes its letters, digits and
// underscores (other runs of characters as one "_"), starting with a
// letter, at most 64 bytes, with "_2", "_3"… added when taken.
func fieldNames(props []string) map[string]string {
	out := make(map[string]string, len(props))
	taken := map[string]bool{}
	for _, p := range props {
		if validName(p) {
			out[p], taken[p] = p, true
		}
	}
	for _, p := range props {
		if _, kept := out[p]; kept {
			continue
		}
		base := fieldNameFrom(p)
		name := base
		for n := 2; taken[name]; n++ {
			suffix := "_" + strconv.Itoa(n)
			name = base[:min(len(base), 64-len(suffix))] + suffix
		}
		out[p], taken[name] = name, true
	}
	return out
}

// fieldNameFrom is a valid field name made of p's ASCII letters, digits
// and underscores.
func fieldNameFrom(p string) string {
	var b strings.Builder
	gap := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if isLetter(c) || isDigit(c) || c == '_' {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteByte(c)
			continue
		}
		gap = true
	}
	s := b.String()
	if s == "" || !isLetter(s[0]) {
		s = "field_" + s
		s = strings.TrimSuffix(s, "_")
	}
	return s[:min(len(s), 64)]
}

// SchemaNames maps the field names of the form imported from a
// requestedSchema back to the schema's property names, for the properties
// whose names differ (nil when none does, or the schema cannot be read).
func SchemaNames(requestedSchema json.RawMessage) map[string]string {
	v, probs := decodeJSON(requestedSchema, "")
	if len(probs) > 0 {
		return nil
	}
	root, ok := v.(*object)
	if !ok {
		return nil
	}
	pv, _ := root.get("properties")
	props, ok := pv.(*object)
	if !ok {
		return nil
	}
	var out map[string]string
	for prop, field := range fieldNames(props.keys) {
		if prop != field {
			if out == nil {
				out = map[string]string{}
			}
			out[field] = prop
		}
	}
	return out
}

// ToSchemaNames returns values keyed by the schema's property names
// (names from SchemaNames; values of other fields keep their keys).
func ToSchemaNames(values map[string]any, names map[string]string) map[string]any {
	if len(names) == 0 || values == nil {
		return values
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		if p, ok := names[k]; ok {
			k = p
		}
		out[k] = v
	}
	return out
}
