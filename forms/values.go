package forms

import (
	"fmt"
	"maps"
	"slices"
)

// ParseValues decodes a JSON object of values (the CLI's --values-json, a
// model's input_resolve values) with the same walker as declarations:
// numbers stay json.Number, duplicate keys, depth, size and invalid UTF-8
// become problems. The result feeds Normalize.
func ParseValues(raw []byte, prefix string) (map[string]any, []Problem) {
	if len(raw) > MaxReplySize {
		return nil, []Problem{{Path: prefix, Message: fmt.Sprintf("values are %d bytes; the limit is %d", len(raw), MaxReplySize)}}
	}
	v, probs := decodeJSON(raw, prefix)
	if v == nil && len(probs) > 0 {
		return nil, probs
	}
	o, ok := v.(*object)
	if !ok {
		return nil, append(probs, Problem{Path: prefix, Message: "values must be a JSON object, not " + typeName(v)})
	}
	return plain(o).(map[string]any), probs
}

// Normalize validates values against def and returns them in normal form:
// string, bool, float64 (number), int64 (integer), []string (multiselect).
// Missing fields are not a problem here, since partial answers are allowed;
// an empty string or empty selection means "no value" and is left out, so
// that Missing sees it as missing. prefix is the JSON Pointer of the values
// object in the caller's input (e.g. "/values").
func Normalize(def Definition, values map[string]any, prefix string) (Values, []Problem) {
	var p problems
	out := Values{}
	names := slices.Sorted(maps.Keys(values))
	for _, name := range names {
		path := ptr(prefix, name)
		f, ok := def.FieldByName(name)
		if !ok {
			p.add(path, "unknown field %q", clip(name))
			continue
		}
		if v, ok := p.value(f, values[name], path); ok {
			out[name] = v
		}
	}
	return out, p.result()
}

// FieldByName finds a field by name.
func (def Definition) FieldByName(name string) (Field, bool) {
	if i := slices.IndexFunc(def.Fields, func(f Field) bool { return f.Name == name }); i >= 0 {
		return def.Fields[i], true
	}
	return Field{}, false
}

// Missing returns the names of required fields that have no value in any of
// the given value sets, in field order. An empty string or an empty
// selection counts as no value.
func Missing(def Definition, sets ...Values) []string {
	var out []string
	for _, f := range def.Fields {
		if f.Required && !hasValueOf(f, sets) {
			out = append(out, f.Name)
		}
	}
	return out
}

// hasValueOf reports that some set holds an answer for f.
func hasValueOf(f Field, sets []Values) bool {
	for _, s := range sets {
		if answered(f, s[f.Name]) {
			return true
		}
	}
	return false
}
