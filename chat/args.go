package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// DecodeArgs decodes a tool call's arguments into v, a pointer to a struct.
// An argument of the wrong type is INVALID_ARGUMENT saying in words which
// argument, what it must be and what it was — `timeoutSeconds must be a
// number of seconds (got the string "3")` — never the decoder's Go names.
// A field's `want` tag words what it must be; without one its type does.
func DecodeArgs(raw json.RawMessage, v any) error {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return unknownArgs(raw, v)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field == "" {
			return errorf(CodeInvalidArgument, "the arguments must be a JSON object of named arguments (got %s)", describeJSON(raw))
		}
		got := "a " + te.Value
		if at, ok := valueAt(raw, te.Field); ok {
			got = describeJSON(at)
		}
		return errorf(CodeInvalidArgument, "%s must be %s (got %s)", te.Field, wanted(v, te), got)
	}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return errorf(CodeInvalidArgument, "the arguments are not valid JSON (at byte %d)", se.Offset)
	}
	return errorf(CodeInvalidArgument, "the arguments are not a JSON object of named arguments: %v", err)
}

// unknownArgs refuses, as input_request does, an argument v has no field
// for: a misspelt one (timeout for timeoutSeconds) would be ignored.
func unknownArgs(raw json.RawMessage, v any) error {
	var m map[string]json.RawMessage
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if json.Unmarshal(raw, &m) != nil || t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var known, unknown []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			known = append(known, name)
		}
	}
	for k := range m {
		if !slices.Contains(known, k) {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return errorf(CodeInvalidArgument, "unknown argument %s (the arguments are %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

// wanted words what the argument te names must be: its field's want tag
// (for a top-level argument), else its type.
func wanted(v any, te *json.UnmarshalTypeError) string {
	if t := reflect.TypeOf(v); t != nil && !strings.Contains(te.Field, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() == reflect.Struct {
			for i := range t.NumField() {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == te.Field && f.Tag.Get("want") != "" {
					return f.Tag.Get("want")
				}
			}
		}
	}
	t := te.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another kind of value"
}

// valueAt is the value at a decoder's dotted field path in raw.
func valueAt(raw json.RawMessage, path string) (json.RawMessage, bool) {
	for name := range strings.SplitSeq(path, ".") {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil, false
		}
		next, ok := m[name]
		if !ok {
			return nil, false
		}
		raw = next
	}
	return raw, true
}

// describeJSON words a JSON value for a message: the string "3", the
// number -5, true, a list, an object.
func describeJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "something that is not JSON"
	}
	switch x := v.(type) {
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return fmt.Sprintf("the string %q", x)
	case float64:
		return "the number " + strings.TrimSpace(string(raw))
	case bool:
		return fmt.Sprint(x)
	case nil:
		return "null"
	case []any:
		return "a list"
	}
	return "an object"
}
