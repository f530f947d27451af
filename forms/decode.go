package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
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
	problems problems
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
			rest := raw[w.prev:]
			err = moreData(int(w.prev) + len(rest) - len(bytes.TrimLeft(rest, " \t\r\n")))
		}
	}
	if err != nil {
		w.problems.add(prefix, "%s", syntaxProblem(raw, int(w.dec.InputOffset()), err))
		return nil, w.problems.result()
	}
	return v, w.problems.result()
}

// moreData is JSON that goes on after its value, at this byte.
type moreData int

func (moreData) Error() string { return "more after the JSON value, where nothing should be" }

// syntaxWords are the decoder's phrases for where it stopped, in words.
var syntaxWords = []struct{ theirs, ours string }{
	{" looking for beginning of value", "where a value should start"},
	{" looking for beginning of object key string", "where a quoted name should start"},
	{" after object key:value pair", `after a value, where "," or "}" should be`},
	{" after object key", `after a name, where ":" should be`},
	{" after array element", `after a value, where "," or "]" should be`},
	{" after top-level value", "after the JSON value, where nothing should be"},
	{" in string literal", "inside a string, where it must be escaped"},
	{" in string escape code", `in a \ escape`},
	{" in numeric literal", "in a number"},
	{" in literal", "in a word that should be true, false or null"},
	{"", `where a quoted name or "}" should be`}, // an object's start
}

// syntaxProblem says where raw stops being JSON, by line and column, and
// what is there, in words rather than the decoder's. from is where the
// decoder stopped: at the token it refused, or at the start of the value
// it was reading.
func syntaxProblem(raw []byte, from int, err error) string {
	at, what := len(raw), "the input ends before the JSON value does" // at: the byte's index
	var se *json.SyntaxError
	var more moreData
	switch {
	case errors.As(err, &more):
		at, what = int(more), more.Error()
	case errors.As(err, &se):
		what = strings.TrimPrefix(se.Error(), "invalid character ")
		if q, err := strconv.QuotedPrefix(what); err == nil {
			c, _ := strconv.Unquote(q)
			at = from + max(0, bytes.Index(raw[min(from, len(raw)):], []byte(c)))
			for _, w := range syntaxWords {
				if strings.HasPrefix(what[len(q):], w.theirs) {
					what = "found " + q + " " + w.ours
					break
				}
			}
		}
	case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		what = strings.TrimPrefix(err.Error(), "json: ")
	}
	line, col := 1, 1
	for _, b := range raw[:min(at, len(raw))] {
		switch {
		case b == '\n':
			line, col = line+1, 1
		case b&0xc0 != 0x80: // not inside a character
			col++
		}
	}
	return fmt.Sprintf("not valid JSON at line %d, column %d: %s", line, col, what)
}

// token reads one token and checks that its raw bytes are valid UTF-8
// and that its escapes name characters: encoding/json would silently turn
// invalid bytes, and a lone surrogate escape such as \ud800, into U+FFFD.
func (w *walker) token(path string) (json.Token, error) {
	t, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	off := w.dec.InputOffset()
	if _, isStr := t.(string); isStr {
		seg := w.raw[w.prev:off]
		if !utf8.Valid(seg) {
			w.problems.add(path, "invalid UTF-8 in string")
		} else if esc, bad := loneSurrogate(seg); bad {
			w.problems.add(path, "unpaired surrogate %s in string: it is not a character", esc)
		}
	}
	w.prev = off
	return t, nil
}

// loneSurrogate finds a \uXXXX escape of a UTF-16 surrogate that is not
// half of a high-low pair. seg is raw JSON around one string token.
func loneSurrogate(seg []byte) (string, bool) {
	for i := 0; i+6 <= len(seg); i++ {
		switch {
		case seg[i] != '\\':
		case seg[i+1] != 'u':
			i++ // \\, \" and the rest: skip the escaped byte
		case !utf16.IsSurrogate(hex4(seg, i+2)):
			i += 5
		case bytes.HasPrefix(seg[i+6:], []byte(`\u`)) && utf16.DecodeRune(hex4(seg, i+2), hex4(seg, i+8)) != utf8.RuneError:
			i += 11 // a pair: one character
		default:
			return string(seg[i : i+6]), true
		}
	}
	return "", false
}

// hex4 reads four hex digits at seg[at:]; -1 when there are not four.
func hex4(seg []byte, at int) rune {
	n, err := strconv.ParseUint(string(seg[at:min(at+4, len(seg))]), 16, 16)
	if err != nil || at+4 > len(seg) {
		return -1
	}
	return rune(n)
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
			w.problems.add(path, "nesting deeper than %d levels", MaxDepth)
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
			w.problems.add(path+"/"+escapePointer(k), "duplicate key %q", k)
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
	case json.Number, float64, int, int64:
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
