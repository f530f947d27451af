package forms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// text is one line of free text; textarea is several.

var textKind = &kind{
	typ:        Text,
	attrs:      []string{"minLength", "maxLength", "pattern", "format"},
	normalize:  normalizeText(false),
	answered:   answeredText,
	schemaType: "string",
	claims:     func(o *object) bool { return !hasChoices(o) },
	fromSchema: importString,
	widget:     inputWidget,
	load:       loadText(false),
	value:      textValue,
	draft:      textDraft,
	hint:       textHint,
	typed:      true,
}

var textareaKind = &kind{
	typ:       Textarea,
	attrs:     []string{"minLength", "maxLength", "pattern"},
	normalize: normalizeText(true),
	answered:  answeredText,
	widget:    textareaWidget,
	load:      loadText(true),
	value:     textValue,
	draft:     textDraft,
	hint:      textHint,
	review:    reviewTextarea,
	typed:     true,
}

func normalizeText(multiline bool) func(p *problems, f Field, v any, path string) (any, bool) {
	return func(p *problems, f Field, v any, path string) (any, bool) {
		s, isStr := v.(string)
		if !isStr {
			p.add(path, "%s must be a string, not %s", f.DisplayLabel(), typeName(v))
			return nil, false
		}
		if blank(s) {
			return nil, false // no answer, like an empty string
		}
		if f.Format == "date-time" {
			if rfc, ok := localDateTime(s); ok {
				s = rfc
			}
		}
		p.checkText(f, s, path, multiline)
		return s, true
	}
}

// blank reports text that says nothing: empty, or only spaces, line
// breaks and invisible format characters. It is no answer (docs/behaviour.md:
// a required text field of only spaces is missing).
func blank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// answeredText: blank text is no answer.
func answeredText(v any) bool {
	if s, ok := v.(string); ok {
		return !blank(s)
	}
	return answeredValue(v)
}

// checkText applies the rules every string value shares: UTF-8, no
// controls (a multi-line value may hold newlines and tabs), the string
// limit, the declared length, pattern and format.
func (p *problems) checkText(f Field, s, path string, multiline bool) {
	if !utf8.ValidString(s) {
		p.add(path, "%s is not valid UTF-8", f.DisplayLabel())
		return
	}
	if bad, ok := controlIn(s, multiline); ok {
		p.add(path, "%s contains the control character %U", f.DisplayLabel(), bad)
	}
	n := utf8.RuneCountInString(s)
	if n > MaxString {
		p.add(path, "%s is %d characters long; the limit is %d", f.DisplayLabel(), n, MaxString)
	}
	if f.MinLength != nil && n < *f.MinLength {
		p.add(path, "%s needs at least %d %s", f.DisplayLabel(), *f.MinLength, Plural(*f.MinLength, "character", "characters"))
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		p.add(path, "%s allows at most %d %s", f.DisplayLabel(), *f.MaxLength, Plural(*f.MaxLength, "character", "characters"))
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

// hasChoices reports a string property that lists its choices.
func hasChoices(o *object) bool {
	for _, k := range []string{"enum", "oneOf", "anyOf"} {
		if _, has := o.get(k); has {
			return true
		}
	}
	return false
}

// importString reads the keywords of a string property.
func importString(im *importer, o *object, f *Field, path string) {
	f.Format = im.str(o, "format", path)
	f.Pattern = im.str(o, "pattern", path)
	f.MinLength, f.MaxLength = im.count(o, "minLength", path), im.count(o, "maxLength", path)
}

func loadText(multiline bool) func(s *slot, v any) {
	return func(s *slot, v any) {
		str, _ := v.(string)
		s.text = widgetText(str, multiline)
	}
}

// widgetText is text as the bubbles input widgets will hold it (they drop
// controls and expand tabs and line breaks). Loading it in that form keeps
// the widget's first write-back from looking like an edit.
func widgetText(s string, multiline bool) string {
	if multiline {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n':
			b.WriteString(pick(multiline, "\n", " "))
		case r == '\t':
			b.WriteString(pick(multiline, "    ", " "))
		case r == utf8.RuneError || unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func textValue(s *slot) (any, bool) { return s.text, !blank(s.text) }

// textDraft keeps the text as typed, an empty one included, so a cleared
// prefill stays cleared.
func textDraft(s *slot) (any, bool) { return s.text, true }

// textHint is the field's rules in the words Constraints uses; that it
// takes text goes without saying.
func textHint(s *slot) string {
	return strings.Join(rulePhrases(s.f), ", ")
}

// reviewTextarea indents a multi-line value under its label.
func reviewTextarea(f Field, v any) (string, bool) {
	s, ok := v.(string)
	if !ok || !strings.Contains(s, "\n") {
		return "", false
	}
	return "\n  " + strings.ReplaceAll(SanitizeBlock(s), "\n", "\n  "), true
}
