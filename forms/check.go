package forms

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

// controlIn finds a control character a value must not carry: it would
// reach a terminal or a model prompt raw (bidi overrides and other
// invisible controls included: the sanitisers' rule, neutralised). A
// textarea may hold newlines and tabs (and CR before a newline); nothing
// else may.
func controlIn(s string, multiline bool) (rune, bool) {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if neutralised(r) {
			return r, true
		}
	}
	return 0, false
}
