package forms

// boolean is yes or no. Its widget (yesNo) marks no choice until the user
// makes one, so moving past an untouched boolean answers nothing: a
// required one stays missing. A prefill or a schema default is drawn as
// a suggestion.
var booleanKind = &kind{
	typ: Boolean,
	normalize: func(p *problems, f Field, v any, path string) (any, bool) {
		b, isBool := v.(bool)
		if !isBool {
			p.add(path, "%s must be true or false, not %s", f.DisplayLabel(), typeName(v))
			return nil, false
		}
		return b, true
	},
	schemaType: "boolean",
	claims:     func(*object) bool { return true },
	fromSchema: func(*importer, *object, *Field, string) {},
	phrase:     func(Field) string { return "yes/no (true or false)" },
	widget:     confirmWidget,
	load:       func(s *slot, v any) { s.on, s.has = v.(bool) },
	value:      func(s *slot) (any, bool) { return s.on, s.has },
	draft:      func(s *slot) (any, bool) { return s.on, s.has },
}
