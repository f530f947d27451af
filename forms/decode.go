package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// object is a decoded JSON object that keeps its key order, so problems and
// schema properties come out in the order the author wrote them.
type object struct {
	keys []string
	vals map[string]any
	// spans holds the raw byte range of each member value; ParseDeclaration
	// uses it to keep `context` exactly as written.
	spans map[string][2]int64
}

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// walker decodes JSON token by token. It enforces depth, duplicate keys and
// UTF-8 before any value is built, so hostile input costs one bounded scan
// and yields problems rather than errors or panics.
type walker struct {
	raw      []byte
	dec      *json.Decoder
	prev     int64
	problems []Problem
	deepSeen bool
}

// decodeJSON decodes raw into nil, bool, json.Number, string, []any and
// *object values. prefix is the JSON Pointer of raw within the caller's input.
func decodeJSON(raw []byte, prefix string) (any, []Problem) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, []Problem{{Path: prefix, Message: "empty input: expected a JSON object"}}
	}
	w := &walker{raw: raw, dec: json.NewDecoder(bytes.NewReader(raw))}
	w.dec.UseNumber()
	v, err := w.value(prefix, 1)
	if err == nil {
		if _, err2 := w.dec.Token(); err2 != io.EOF {
			err = errors.New("unexpected data after the top-level value")
		}
	}
	if err != nil {
		w.problems = append(w.problems, Problem{Path: prefix, Message: "not valid JSON: " + cleanJSONError(err)})
		return nil, w.problems
	}
	return v, w.problems
}

// cleanJSONError keeps the decoder's message but drops the package prefix.
func cleanJSONError(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// token reads one token and checks that its raw bytes are valid UTF-8
// (encoding/json would silently replace invalid bytes with U+FFFD).
func (w *walker) token(path string) (json.Token, error) {
	t, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	off := w.dec.InputOffset()
	if _, isStr := t.(string); isStr && !utf8.Valid(w.raw[w.prev:off]) {
		w.add(path, "invalid UTF-8 in string")
	}
	w.prev = off
	return t, nil
}

func (w *walker) add(path, msg string) {
	w.problems = append(w.problems, Problem{Path: path, Message: msg})
}

func (w *walker) value(path string, depth int) (any, error) {
	t, err := w.token(path)
	if err != nil {
		return nil, err
	}
	d, isDelim := t.(json.Delim)
	if !isDelim {
		return t, nil
	}
	if depth > MaxDepth {
		if !w.deepSeen {
			w.add(path, fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
			w.deepSeen = true
		}
		return nil, w.skip()
	}
	if d == '[' {
		arr := []any{}
		for w.dec.More() {
			v, err := w.value(path+"/"+strconv.Itoa(len(arr)), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := w.token(path)
		return arr, err
	}
	obj := &object{vals: map[string]any{}, spans: map[string][2]int64{}}
	for w.dec.More() {
		kt, err := w.token(path)
		if err != nil {
			return nil, err
		}
		k, _ := kt.(string)
		start := w.prev
		v, err := w.value(path+"/"+escapePointer(k), depth+1)
		if err != nil {
			return nil, err
		}
		if _, dup := obj.vals[k]; dup {
			w.add(path+"/"+escapePointer(k), fmt.Sprintf("duplicate key %q", k))
			continue
		}
		obj.keys = append(obj.keys, k)
		obj.vals[k] = v
		obj.spans[k] = [2]int64{start, w.prev}
	}
	_, err = w.token(path)
	return obj, err
}

// skip consumes the rest of a container already opened, without building it.
func (w *walker) skip() error {
	for level := 1; level > 0; {
		t, err := w.dec.Token()
		if err != nil {
			return err
		}
		w.prev = w.dec.InputOffset()
		if d, ok := t.(json.Delim); ok {
			if d == '[' || d == '{' {
				level++
			} else {
				level--
			}
		}
	}
	return nil
}

// rawSpan returns the compact text of a member value as written.
func rawSpan(raw []byte, span [2]int64) []byte {
	seg := bytes.TrimLeft(raw[span[0]:span[1]], " \t\r\n:")
	var buf bytes.Buffer
	if json.Compact(&buf, seg) != nil {
		return append([]byte(nil), seg...)
	}
	return buf.Bytes()
}

// escapePointer escapes one JSON Pointer reference token (RFC 6901).
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// ptr joins a JSON Pointer prefix and reference tokens.
func ptr(prefix string, tokens ...any) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, t := range tokens {
		b.WriteByte('/')
		switch t := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(t))
		case string:
			b.WriteString(escapePointer(t))
		default:
			fmt.Fprint(&b, t)
		}
	}
	return b.String()
}

// plain converts decoded values to the map/slice shapes callers expect.
func plain(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			m[k] = plain(v.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// typeName names a decoded JSON value's kind for messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64, float32, int, int64, int32:
		return "number"
	case string:
		return "string"
	case []any, []string:
		return "array"
	case *object, map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
