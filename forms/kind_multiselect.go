package forms

import (
	"fmt"
	"slices"
)

// multiselect is any number of the declared options, kept in option order.
var multiselectKind = &kind{
	typ:   Multiselect,
	attrs: []string{"options", "minItems", "maxItems"},
	normalize: func(p *problems, f Field, v any, path string) (any, bool) {
		list, ok := p.picks(f, v, path)
		if !ok || len(list) == 0 {
			return nil, false
		}
		return list, true
	},
	schemaType: "array",
	claims:     func(*object) bool { return true },
	fromSchema: func(im *importer, o *object, f *Field, path string) {
		f.MinItems, f.MaxItems = im.count(o, "minItems", path), im.count(o, "maxItems", path)
		f.Options = im.items(o, f.Name, path)
	},
	phrase: func(f Field) string { return "any of " + optionPhrase(f) },
	widget: multiselectWidget,
	load: func(s *slot, v any) {
		var ignored problems // what is not an option is left out
		list, _ := ignored.picks(s.f, v, "")
		s.picks = append([]string{}, list...)
	},
	value: func(s *slot) (any, bool) { return slices.Clone(s.picks), len(s.picks) > 0 },
	draft: func(s *slot) (any, bool) { return slices.Clone(s.picks), true },
	hint:  func(s *slot) string { return countHint(s.f, len(s.picks)) },
}

// picks accepts []string or []any of strings; order follows the options.
func (p *problems) picks(f Field, v any, path string) ([]string, bool) {
	if n, most := listLen(v), max(MaxOptions, len(f.Options)); n > most {
		p.add(path, "%d choices; a field has at most %d options", n, most)
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
		p.add(path, "%s needs at least %d %s", f.DisplayLabel(), *f.MinItems, Plural(*f.MinItems, "choice", "choices"))
	}
	if f.MaxItems != nil && len(out) > *f.MaxItems {
		p.add(path, "%s allows at most %d %s", f.DisplayLabel(), *f.MaxItems, Plural(*f.MaxItems, "choice", "choices"))
	}
	return out, true
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

func countHint(f Field, n int) string {
	switch {
	case f.MaxItems != nil:
		return fmt.Sprintf("%d of at most %d selected", n, *f.MaxItems)
	case f.MinItems != nil:
		return fmt.Sprintf("%d selected, at least %d", n, *f.MinItems)
	}
	return fmt.Sprintf("%d selected", n)
}
