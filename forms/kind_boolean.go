package forms

import "github.com/charmbracelet/huh"

// boolean is yes or no. Its widget always shows a choice, so moving past
// an untouched one answers "no" (the choice under the cursor).
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
	toSchema:   func(_ Field, prop *object) { prop.set("type", "boolean") },
	widget:     confirmWidget,
	load:       func(s *slot, v any) { s.on, s.has = v.(bool) },
	value:      func(s *slot) (any, bool) { return s.on, s.has },
	draft:      func(s *slot) (any, bool) { return s.on, s.has },
	chooses:    true,
}

func confirmWidget(s *slot) huh.Field {
	c := huh.NewConfirm()
	c.WithTheme(s.theme)
	c.Key(s.f.Name).Title(s.label()).Affirmative("Yes").Negative("No").
		Validate(func(bool) error { s.confirmed(); return nil })
	c.Accessor(boolAccess{s})
	s.setTitle, s.setDesc = func(v string) { c.Title(v) }, func(v string) { c.Description(v) }
	return c
}
