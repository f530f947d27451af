package forms

import "strings"

// Constraints says in words what an answer to f must be: its kind, then
// each rule it keeps, as the declaration states them —
//
//	whole number, 1–12
//	one of Train (train) | Plane (plane)
//	text, date (YYYY-MM-DD), at most 80 characters
//
// The headless CLI lists them for each asked field; the hint under a
// field in the form is made of the same phrases (less what the form shows
// by itself: that a text box takes text, which options a list has). The
// phrases are sanitised.
func (f Field) Constraints() []string {
	return append([]string{kindPhrase(f)}, rulePhrases(f)...)
}

// kindPhrase is the kind of answer a field takes, in words.
func kindPhrase(f Field) string {
	if k := kindOf(f.Type); k != nil && k.phrase != nil {
		return k.phrase(f)
	}
	return SanitizeLine(string(f.Type))
}

// optionPhrase names a choice's options, each as "label (value)" when it
// has a label of its own.
func optionPhrase(f Field) string {
	shown := make([]string, len(f.Options))
	for i, o := range f.Options {
		shown[i] = SanitizeLine(o.Value)
		if o.Label != "" && o.Label != o.Value {
			shown[i] = SanitizeLine(o.Label) + " (" + shown[i] + ")"
		}
	}
	return strings.Join(shown, " | ")
}

// rulePhrases are the rules beyond the kind: format, range, length, item
// count and pattern, in that order.
func rulePhrases(f Field) []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	add(formatPhrase(f.Format))
	add(between(f.Min, f.Max, "", ""))
	add(between(intBound(f.MinLength), intBound(f.MaxLength), " character", " characters"))
	add(between(intBound(f.MinItems), intBound(f.MaxItems), " choice", " choices"))
	if f.Pattern != "" {
		add("matching " + SanitizeLine(f.Pattern))
	}
	return out
}

func intBound(p *int) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

// between is "1–12", "exactly 3", "at least 1", "at most 12" or "", then
// the unit (one, many: " character", " characters") that agrees with the
// last number shown.
func between(lo, hi *float64, one, many string) string {
	num := fmtNum
	unit := func(n float64) string { return num(n) + Plural(int(n), one, many) }
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return "exactly " + unit(*lo)
	case lo != nil && hi != nil:
		return num(*lo) + "–" + unit(*hi)
	case lo != nil:
		return "at least " + unit(*lo)
	case hi != nil:
		return "at most " + unit(*hi)
	}
	return ""
}
