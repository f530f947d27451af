package forms

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// validName is ^[A-Za-z][A-Za-z0-9_]{0,63}$, checked by hand: a bounded
// repetition compiles to a large program at every start.
func validName(s string) bool {
	if len(s) == 0 || len(s) > 64 || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}

// ValidKey reports whether s may be a request key or a template name:
// ^[A-Za-z0-9._:-]{1,128}$.
func ValidKey(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && !strings.ContainsRune("._:-", rune(c)) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// pathFunc maps a field index and an attribute (with optional sub-tokens,
// e.g. "options", 3) to a JSON Pointer into the input. Dynamic definitions
// and imported schemas spell attributes differently; rules do not care.
type pathFunc func(i int, attr string, sub ...any) string

// checkString applies the universal string limit.
func (p *problems) checkString(path, what, s string) {
	if n := utf8.RuneCountInString(s); n > MaxString {
		p.add(path, "%s is %d characters long; the limit is %d", what, n, MaxString)
	}
}

// checkDefinition applies every semantic rule of docs/input-requests.md to a typed
// definition. Type-level problems (a string where a number belongs) are found
// while decoding; this covers what remains.
// fieldsPath is where the list of fields lives (fields or properties).
func (p *problems) checkDefinition(def Definition, base, fieldsPath string, at pathFunc) {
	p.checkString(base+"/title", "title", def.Title)
	p.checkString(base+"/description", "description", def.Description)
	switch n := len(def.Fields); {
	case n == 0:
		p.add(fieldsPath, "a form needs at least one field")
	case n > MaxFields:
		p.add(fieldsPath, "%d fields; the limit is %d", n, MaxFields)
	}
	seen := map[string]int{}
	for i, f := range def.Fields {
		if j, dup := seen[f.Name]; dup && f.Name != "" {
			p.add(at(i, "name"), "duplicate field name %q (also field %d)", f.Name, j)
		} else {
			seen[f.Name] = i
		}
		p.checkField(f, i, at)
	}
}

func (p *problems) checkField(f Field, i int, at pathFunc) {
	if !validName(f.Name) {
		p.add(at(i, "name"), "name %q must match ^[A-Za-z][A-Za-z0-9_]{0,63}$", clip(f.Name))
	}
	k := kindOf(f.Type)
	if k == nil && !p.toldAt(at(i, "type")) { // a type refused while decoding is not refused twice
		p.add(at(i, "type"), "unknown field type %q (known: %s)", clip(string(f.Type)), TypeList())
	}
	p.checkString(at(i, "label"), "label", f.Label)
	p.checkString(at(i, "description"), "description", f.Description)
	p.checkString(at(i, "placeholder"), "placeholder", f.Placeholder)
	p.checkString(at(i, "pattern"), "pattern", f.Pattern)

	p.checkOptions(f, i, at, k.takes("options"))

	p.takesPair(k, f, i, at, "min", "max", f.Min != nil, f.Max != nil)
	if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
		p.add(at(i, "min"), "min %v is greater than max %v", *f.Min, *f.Max)
	}
	p.checkCounts(at(i, "minLength"), at(i, "maxLength"), "minLength", "maxLength", f.MinLength, f.MaxLength)
	p.takesPair(k, f, i, at, "minLength", "maxLength", f.MinLength != nil, f.MaxLength != nil)
	if f.MaxLength != nil && *f.MaxLength > MaxString {
		p.add(at(i, "maxLength"), "maxLength %d is above the string limit %d", *f.MaxLength, MaxString)
	}
	if f.Pattern != "" {
		if !k.takes("pattern") {
			p.add(at(i, "pattern"), "pattern applies only to %s fields, not %s", kindsTaking("pattern"), f.Type)
		}
		if _, err := compilePattern(f.Pattern); err != nil {
			p.add(at(i, "pattern"), "pattern does not compile: %v", err)
		}
	}
	if f.Format != "" {
		if !k.takes("format") {
			p.add(at(i, "format"), "format applies only to %s fields, not %s", kindsTaking("format"), f.Type)
		}
		if !slices.Contains(Formats, f.Format) && !p.server {
			p.add(at(i, "format"), "unknown format %q (known: %s)", clip(f.Format), strings.Join(Formats, ", "))
		}
	}
	p.checkCounts(at(i, "minItems"), at(i, "maxItems"), "minItems", "maxItems", f.MinItems, f.MaxItems)
	p.takesPair(k, f, i, at, "minItems", "maxItems", f.MinItems != nil, f.MaxItems != nil)
	if f.MinItems != nil && len(f.Options) > 0 && *f.MinItems > len(f.Options) {
		p.add(at(i, "minItems"), "minItems %d is more than the %d %s", *f.MinItems, len(f.Options), Plural(len(f.Options), "option", "options"))
	}
	if k != nil && k.check != nil {
		k.check(p, f, i, at)
	}
}

// takesPair reports a pair of bounds set on a kind that does not take
// them, once for the pair, at the first one set.
func (p *problems) takesPair(k *kind, f Field, i int, at pathFunc, lo, hi string, hasLo, hasHi bool) {
	badLo, badHi := hasLo && !k.takes(lo), hasHi && !k.takes(hi)
	if !badLo && !badHi {
		return
	}
	attr := pick(badLo, lo, hi)
	p.add(at(i, attr), "%s/%s apply only to %s fields, not %s", lo, hi, kindsTaking(attr), f.Type)
}

func (p *problems) checkOptions(f Field, i int, at pathFunc, choice bool) {
	if !choice {
		if f.Options != nil {
			p.add(at(i, "options"), "options apply only to %s fields, not %s", kindsTaking("options"), f.Type)
		}
		return
	}
	limit := MaxOptions
	if p.server {
		limit = MaxServerOptions
	}
	switch n := len(f.Options); {
	case n == 0:
		p.add(at(i, "options"), "a %s field needs at least one option", f.Type)
	case n > limit:
		p.add(at(i, "options"), "%d options; the limit is %d", n, limit)
	}
	seen := map[string]bool{}
	for j, o := range f.Options {
		if o.Value == "" {
			p.add(at(i, "options", j), "an option value must not be empty")
		}
		if r, bad := controlIn(o.Value, false); bad {
			p.add(at(i, "options", j), "option value contains the control character %U", r)
		}
		if seen[o.Value] {
			p.add(at(i, "options", j), "duplicate option value %q", clip(o.Value))
		}
		seen[o.Value] = true
		p.checkString(at(i, "options", j), "option value", o.Value)
		p.checkString(at(i, "options", j), "option label", o.Label)
	}
}

// checkCounts checks a pair of non-negative integer bounds.
func (p *problems) checkCounts(minPath, maxPath, minName, maxName string, lo, hi *int) {
	if lo != nil && *lo < 0 {
		p.add(minPath, "%s must not be negative", minName)
	}
	if hi != nil && *hi < 0 {
		p.add(maxPath, "%s must not be negative", maxName)
	}
	if lo != nil && hi != nil && *lo > *hi {
		p.add(minPath, "%s %d is greater than %s %d", minName, *lo, maxName, *hi)
	}
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// clip shortens untrusted text quoted in a message so a problem list stays
// readable and bounded.
// It cuts between grapheme clusters, never inside one.
func clip(s string) string {
	const n = 64
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	var b strings.Builder
	runes := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		c := g.Str()
		if runes += utf8.RuneCountInString(c); runes > n {
			break
		}
		b.WriteString(c)
	}
	return b.String() + "…"
}
