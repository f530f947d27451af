package forms

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// value normalises one value; ok is false when it is invalid or empty.
func (p *problems) value(f Field, v any, path string) (any, bool) {
	start := len(*p)
	var out any
	switch f.Type {
	case Text, Textarea, Select:
		s, isStr := v.(string)
		if !isStr {
			p.add(path, "%s must be a string, not %s", f.DisplayLabel(), typeName(v))
			return nil, false
		}
		if s == "" {
			return nil, false
		}
		p.checkText(f, s, path)
		out = s
	case Number, Integer:
		n, ok := p.number(f, v, path)
		if !ok {
			return nil, false
		}
		out = n
	case Boolean:
		b, isBool := v.(bool)
		if !isBool {
			p.add(path, "%s must be true or false, not %s", f.DisplayLabel(), typeName(v))
			return nil, false
		}
		out = b
	case Multiselect:
		list, ok := p.picks(f, v, path)
		if !ok || len(list) == 0 {
			return nil, false
		}
		out = list
	default:
		p.add(path, "field %q has unknown type %q", f.Name, clip(string(f.Type)))
		return nil, false
	}
	return out, len(*p) == start
}

func (p *problems) checkText(f Field, s, path string) {
	if !utf8.ValidString(s) {
		p.add(path, "%s is not valid UTF-8", f.DisplayLabel())
		return
	}
	if bad, ok := controlIn(s, f.Type == Textarea); ok {
		p.add(path, "%s contains the control character %U", f.DisplayLabel(), bad)
	}
	n := utf8.RuneCountInString(s)
	if n > MaxString {
		p.add(path, "%s is %d characters long; the limit is %d", f.DisplayLabel(), n, MaxString)
	}
	if f.MinLength != nil && n < *f.MinLength {
		p.add(path, "%s needs at least %d characters", f.DisplayLabel(), *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		p.add(path, "%s allows at most %d characters", f.DisplayLabel(), *f.MaxLength)
	}
	if f.Type == Select && !f.hasOption(s) {
		p.add(path, "%q is not one of the options of %s", clip(s), f.DisplayLabel())
	}
	if f.Pattern != "" {
		if re, err := compilePattern(f.Pattern); err == nil && !re.MatchString(s) {
			p.add(path, "%s does not match the pattern %s", f.DisplayLabel(), clip(f.Pattern))
		}
	}
	if f.Format != "" {
		if err := checkFormat(f.Format, s); err != nil {
			p.add(path, "%s is %v", f.DisplayLabel(), err)
		}
	}
}

func (f Field) hasOption(v string) bool {
	for _, o := range f.Options {
		if o.Value == v {
			return true
		}
	}
	return false
}

// jsonNumberRE is RFC 8259 number syntax: a json.Number built by hand
// could otherwise smuggle in what strconv also accepts (hex, "Inf", "_").
var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// number accepts float64, json.Number and Go integers; never numeric text.
func (p *problems) number(f Field, v any, path string) (any, bool) {
	var x float64
	var exact *int64
	switch n := v.(type) {
	case json.Number:
		if !jsonNumberRE.MatchString(string(n)) {
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
	case float32:
		x = float64(n)
	case int:
		i := int64(n)
		exact, x = &i, float64(n)
	case int64:
		exact, x = &n, float64(n)
	case int32:
		i := int64(n)
		exact, x = &i, float64(n)
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
	if f.Type == Number {
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

// picks accepts []string or []any of strings; order follows the options.
func (p *problems) picks(f Field, v any, path string) ([]string, bool) {
	if n := listLen(v); n > MaxOptions {
		p.add(path, "%d choices; a field has at most %d options", n, MaxOptions)
		return nil, false
	}
	var in []string
	switch l := v.(type) {
	case []string:
		in = l
	case []any:
		for j, e := range l {
			s, ok := e.(string)
			if !ok {
				p.add(ptr(path, j), "a choice of %s must be a string, not %s", f.DisplayLabel(), typeName(e))
				return nil, false
			}
			in = append(in, s)
		}
	default:
		p.add(path, "%s must be an array of option values, not %s", f.DisplayLabel(), typeName(v))
		return nil, false
	}
	chosen := map[string]bool{}
	for j, s := range in {
		switch {
		case !f.hasOption(s):
			p.add(ptr(path, j), "%q is not one of the options of %s", clip(s), f.DisplayLabel())
		case chosen[s]:
			p.add(ptr(path, j), "%q is chosen twice", clip(s))
		}
		chosen[s] = true
	}
	out := make([]string, 0, len(in))
	for _, o := range f.Options {
		if chosen[o.Value] {
			out = append(out, o.Value)
		}
	}
	if len(out) > 0 && f.MinItems != nil && len(out) < *f.MinItems {
		p.add(path, "%s needs at least %d choices", f.DisplayLabel(), *f.MinItems)
	}
	if f.MaxItems != nil && len(out) > *f.MaxItems {
		p.add(path, "%s allows at most %d choices", f.DisplayLabel(), *f.MaxItems)
	}
	return out, true
}

// fmtNum prints a bound without a trailing ".0" or exponent for whole numbers.
func fmtNum(x float64) string {
	if math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// controlIn finds a control character a value must not carry: they would
// reach a terminal or a model prompt raw. A textarea may hold newlines and
// tabs (and CR before a newline); nothing else may.
func controlIn(s string, multiline bool) (rune, bool) {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return r, true
		}
	}
	return 0, false
}

func listLen(v any) int {
	switch l := v.(type) {
	case []string:
		return len(l)
	case []any:
		return len(l)
	}
	return 0
}
