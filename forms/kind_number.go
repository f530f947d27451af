package forms

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// number is any finite number; integer a whole one. Both are typed as text
// in a one-line input, and a draft keeps that text as typed ("12a"
// survives a crash).

var numberKind = newNumberKind(Number, false)

var integerKind = newNumberKind(Integer, true)

// checkWholeBounds refuses an integer field's fractional min or max: no
// whole number answers "at least 1.5" differently from "at least 2", and
// the form would show a range nobody can type exactly.
func checkWholeBounds(p *problems, f Field, i int, at pathFunc) {
	for _, b := range []struct {
		name string
		v    *float64
	}{{"min", f.Min}, {"max", f.Max}} {
		if b.v != nil && *b.v != math.Trunc(*b.v) {
			p.add(at(i, b.name), "%s of an integer field must be a whole number, not %s", b.name, fmtNum(*b.v))
		}
	}
}

func newNumberKind(t FieldType, integer bool) *kind {
	k := &kind{
		typ:   t,
		attrs: []string{"min", "max"},
		normalize: func(p *problems, f Field, v any, path string) (any, bool) {
			return p.number(f, v, path, integer)
		},
		phrase:     func(Field) string { return pick(integer, "whole number", "number") },
		schemaType: string(t),
		claims:     func(*object) bool { return true },
		fromSchema: func(im *importer, o *object, f *Field, path string) {
			f.Min, f.Max = im.num(o, "minimum", path), im.num(o, "maximum", path)
		},
		widget:  inputWidget,
		load:    func(s *slot, v any) { s.text = numberText(v) },
		value:   func(s *slot) (any, bool) { return parseNumber(s.text, integer) },
		draft:   textDraft,
		hint:    func(s *slot) string { return strings.Join(s.f.Constraints(), ", ") },
		problem: func(s *slot) string { return numberProblem(s.text, integer) },
		typed:   true,
	}
	if integer {
		k.check = checkWholeBounds
	}
	return k
}

// jsonNumberRE is RFC 8259 number syntax: a json.Number built by hand
// could otherwise smuggle in what strconv also accepts (hex, "Inf", "_").
var jsonNumberRE = lazyRegexp(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// number accepts float64, json.Number and Go integers; never numeric text.
func (p *problems) number(f Field, v any, path string, integer bool) (any, bool) {
	var x float64
	var exact *int64
	switch n := v.(type) {
	case json.Number:
		if !jsonNumberRE().MatchString(string(n)) {
			p.add(path, "%s must be a number in JSON syntax", f.DisplayLabel())
			return nil, false
		}
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			exact = &i
			x = float64(i)
		} else if fl, err := strconv.ParseFloat(string(n), 64); err == nil {
			x = fl
		} else {
			p.add(path, "%s must be a finite number", f.DisplayLabel())
			return nil, false
		}
	case float64:
		x = n
	case int:
		i := int64(n)
		exact, x = &i, float64(n)
	case int64:
		exact, x = &n, float64(n)
	default:
		p.add(path, "%s must be a number, not %s", f.DisplayLabel(), typeName(v))
		return nil, false
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		p.add(path, "%s must be a finite number", f.DisplayLabel())
		return nil, false
	}
	if f.Min != nil && x < *f.Min {
		p.add(path, "%s must be at least %s", f.DisplayLabel(), fmtNum(*f.Min))
	}
	if f.Max != nil && x > *f.Max {
		p.add(path, "%s must be at most %s", f.DisplayLabel(), fmtNum(*f.Max))
	}
	if !integer {
		return x, true
	}
	if exact != nil {
		return *exact, true
	}
	// 2^63 is exactly representable; anything at or beyond it overflows int64.
	if x != math.Trunc(x) || x >= 1<<63 || x < -(1<<63) {
		p.add(path, "%s must be a whole number", f.DisplayLabel())
		return nil, false
	}
	return int64(x), true
}

// fmtNum prints a bound without a trailing ".0" or exponent for whole numbers.
func fmtNum(x float64) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func numberText(v any) string {
	switch n := v.(type) {
	case string:
		return n
	case json.Number:
		return string(n)
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(n, 10)
	case int:
		return strconv.Itoa(n)
	}
	return ""
}

// decimalRE is the number syntax a person may type; strconv alone would
// also take hex floats, "Inf" and underscores.
var decimalRE = lazyRegexp(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// parseNumber reads what a person types: surrounding spaces are ignored.
func parseNumber(text string, integer bool) (any, bool) {
	t := strings.TrimSpace(text)
	if !decimalRE().MatchString(t) {
		return nil, false
	}
	if integer {
		if i, err := strconv.ParseInt(t, 10, 64); err == nil {
			return i, true
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
			return nil, false
		}
		return int64(f), true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	return f, true
}

// numberProblem explains number text that does not parse ("" if fine).
func numberProblem(text string, integer bool) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	if _, ok := parseNumber(text, integer); ok {
		return ""
	}
	if integer {
		return "“" + clip(SanitizeLine(text)) + "” is not a whole number"
	}
	return "“" + clip(SanitizeLine(text)) + "” is not a number"
}
