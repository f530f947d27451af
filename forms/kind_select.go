package forms

import (
	"fmt"
	"slices"
)

// select is one of the declared options, drawn by list (live_list.go)
// rather than huh's Select: the cursor and its neighbours always show.
var selectKind = &kind{
	typ:   Select,
	attrs: []string{"options"},
	normalize: func(p *problems, f Field, v any, path string) (any, bool) {
		s, isStr := v.(string)
		if !isStr {
			p.add(path, "%s must be a string, not %s", f.DisplayLabel(), typeName(v))
			return nil, false
		}
		if s == "" {
			return nil, false
		}
		p.checkText(f, s, path, false)
		if !f.hasOption(s) {
			p.add(path, "%q is not one of the options of %s", clip(s), f.DisplayLabel())
		}
		return s, true
	},
	schemaType: "string",
	claims:     hasChoices,
	fromSchema: func(im *importer, o *object, f *Field, path string) {
		// The string keywords are read too, so that one a select cannot
		// take is reported rather than ignored.
		importString(im, o, f, path)
		opts, key, _ := im.choices(o, path)
		f.Options = opts
		im.optPath[f.Name] = key
	},
	phrase: func(f Field) string { return "one of " + optionPhrase(f) },
	widget: selectWidget,
	load: func(s *slot, v any) {
		s.text, _ = v.(string)
		s.has = s.text != "" && s.f.hasOption(s.text)
	},
	value: func(s *slot) (any, bool) { return s.text, s.has && s.text != "" },
	draft: textDraft,
	hint: func(s *slot) string {
		if len(s.f.Options) > longList {
			return fmt.Sprintf("%d options, / to filter", len(s.f.Options))
		}
		return ""
	},
	chooses: true,
}

func (f Field) hasOption(v string) bool {
	return slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == v })
}

func optionLabel(f Field, value string) string {
	for _, o := range f.Options {
		if o.Value == value {
			return o.DisplayLabel()
		}
	}
	return value
}
