package forms

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// DisplayLabel is the option's label, or its value when it has none.
func (o Option) DisplayLabel() string {
	if o.Label != "" {
		return o.Label
	}
	return o.Value
}

// DisplayLabel is the field's label, or its name when it has none.
func (f Field) DisplayLabel() string {
	if f.Label != "" {
		return f.Label
	}
	return f.Name
}

var (
	definitionKeys = []string{"title", "description", "fields"}
	fieldKeys      = []string{"name", "type", "label", "description", "placeholder", "required",
		"options", "min", "max", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems"}
)

// unknownKeys lists the keys of o outside allowed, in one problem.
// At most maxListedKeys are named, in sorted order, then a count.
func (p *problems) unknownKeys(o *object, path string, allowed []string) {
	var extra []string
	for _, k := range o.keys {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return
	}
	sort.Strings(extra)
	named := make([]string, 0, maxListedKeys)
	for _, k := range extra[:min(len(extra), maxListedKeys)] {
		named = append(named, fmt.Sprintf("%q", clip(k)))
	}
	list := strings.Join(named, ", ")
	if rest := len(extra) - len(named); rest > 0 {
		list += " and " + grouped(rest) + " more"
	}
	p.add(path, "unknown %s %s (allowed: %s)", Plural(len(extra), "key", "keys"), list, strings.Join(allowed, ", "))
}

// maxListedKeys bounds the unknown keys one problem names.
const maxListedKeys = 10

// asObject checks that v is an object.
func (p *problems) asObject(v any, path, what string) (*object, bool) {
	o, ok := v.(*object)
	if !ok {
		p.add(path, "%s must be an object, not %s", what, typeName(v))
	}
	return o, ok
}

func (p *problems) str(o *object, key, path string) string {
	v, ok := o.get(key)
	if !ok {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.add(ptr(path, key), "%s must be a string, not %s", key, typeName(v))
	}
	return s
}

func (p *problems) num(o *object, key, path string) *float64 {
	v, ok := o.get(key)
	if !ok {
		return nil
	}
	n, isNum := v.(json.Number)
	if !isNum {
		p.add(ptr(path, key), "%s must be a number, not %s", key, typeName(v))
		return nil
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		p.add(ptr(path, key), "%s must be a finite number", key)
		return nil
	}
	return &f
}

// count reads a non-negative integer bound (negative values are reported by
// checkCounts, so they are kept).
func (p *problems) count(o *object, key, path string) *int {
	f := p.num(o, key, path)
	if f == nil {
		return nil
	}
	if *f != math.Trunc(*f) || math.Abs(*f) > 1<<31 {
		p.add(ptr(path, key), "%s must be a whole number", key)
		return nil
	}
	n := int(*f)
	return &n
}

// definition decodes an inline definition; path points at it.
func (p *problems) definition(v any, path string) Definition {
	var def Definition
	o, ok := p.asObject(v, path, "definition")
	if !ok {
		return def
	}
	p.unknownKeys(o, path, definitionKeys)
	def.Title = p.str(o, "title", path)
	def.Description = p.str(o, "description", path)
	fv, ok := o.get("fields")
	if !ok {
		p.add(path+"/fields", "fields are required")
		return def
	}
	arr, isArr := fv.([]any)
	if !isArr {
		p.add(path+"/fields", "fields must be an array, not %s", typeName(fv))
		return def
	}
	for i, e := range arr {
		def.Fields = append(def.Fields, p.field(e, ptr(path, "fields", i)))
	}
	return def
}

func (p *problems) field(v any, path string) Field {
	f := Field{Required: true}
	o, ok := p.asObject(v, path, "a field")
	if !ok {
		return f
	}
	p.unknownKeys(o, path, fieldKeys)
	if _, has := o.get("name"); !has {
		p.add(path+"/name", "name is required")
	}
	if _, has := o.get("type"); !has {
		p.add(path+"/type", "type is required")
	}
	f.Name = p.str(o, "name", path)
	f.Type = FieldType(p.str(o, "type", path))
	f.Label = p.str(o, "label", path)
	f.Description = p.str(o, "description", path)
	f.Placeholder = p.str(o, "placeholder", path)
	f.Pattern = p.str(o, "pattern", path)
	f.Format = p.str(o, "format", path)
	if rv, has := o.get("required"); has {
		b, isBool := rv.(bool)
		if !isBool {
			p.add(path+"/required", "required must be true or false, not %s", typeName(rv))
		}
		f.Required = b || !isBool
	}
	f.Min, f.Max = p.num(o, "min", path), p.num(o, "max", path)
	f.MinLength, f.MaxLength = p.count(o, "minLength", path), p.count(o, "maxLength", path)
	f.MinItems, f.MaxItems = p.count(o, "minItems", path), p.count(o, "maxItems", path)
	if ov, has := o.get("options"); has {
		f.Options = p.options(ov, path+"/options")
		if f.Options == nil {
			f.Options = []Option{} // present but unusable: keep "present" for the rules
		}
	}
	return f
}

func (p *problems) options(v any, path string) []Option {
	arr, ok := v.([]any)
	if !ok {
		p.add(path, "options must be an array, not %s", typeName(v))
		return nil
	}
	out := make([]Option, 0, len(arr))
	for j, e := range arr {
		switch e := e.(type) {
		case string:
			out = append(out, Option{Value: e})
		case *object:
			at := ptr(path, j)
			p.unknownKeys(e, at, []string{"value", "label"})
			if _, has := e.get("value"); !has {
				p.add(at+"/value", "an option object needs a value")
			}
			out = append(out, Option{Value: p.str(e, "value", at), Label: p.str(e, "label", at)})
		default:
			p.add(ptr(path, j), "an option must be a string or {value, label}, not %s", typeName(e))
		}
	}
	return out
}
