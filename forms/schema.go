package forms

import (
	"cmp"
	"maps"
	"slices"
)

// Import of an MCP elicitation requestedSchema (spec 2025-11-25): a flat
// object of primitive properties. Anything richer is refused with a problem
// rather than approximated, so the agent learns what the form cannot ask.

var (
	schemaRootKeys = []string{"$schema", "$id", "$comment", "type", "title", "description",
		"properties", "required", "$defs", "definitions", "additionalProperties"}
	schemaPropKeys = []string{"$ref", "$comment", "type", "title", "description", "default",
		"minLength", "maxLength", "format", "pattern", "minimum", "maximum", "enum", "enumNames",
		"oneOf", "anyOf", "items", "minItems", "maxItems", "uniqueItems", "examples", "deprecated"}
	schemaItemKeys = []string{"$ref", "$comment", "type", "enum", "enumNames", "anyOf", "oneOf", "title", "description"}
	schemaAttr     = map[string]string{"name": "", "type": "type", "label": "title",
		"description": "description", "placeholder": "", "min": "minimum", "max": "maximum"}
)

// importer holds one schema import: its root for local refs, the problems
// and, per field, where its options came from (for problem paths).
type importer struct {
	*problems
	root    *object
	base    string
	names   []string
	optPath map[string]string
}

// importSchema converts requestedSchema (already decoded) into a definition
// and the defaults it declares (validated, normalised).
func (p *problems) importSchema(v any, base string) (Definition, Values) {
	var def Definition
	root, ok := p.asObject(v, base, "requestedSchema")
	if !ok {
		return def, nil
	}
	im := &importer{problems: p, root: root, base: base, optPath: map[string]string{}}
	p.unknownKeys(root, base, schemaRootKeys)
	if t, has := root.get("type"); !has || t != "object" {
		p.add(base+"/type", `requestedSchema must have "type": "object"`)
	}
	if ap, has := root.get("additionalProperties"); has && ap != false {
		p.add(base+"/additionalProperties", "additionalProperties may only be false: a form asks for named fields")
	}
	def.Title = p.str(root, "title", base)
	def.Description = p.str(root, "description", base)
	required := im.required()
	pv, has := root.get("properties")
	props, isObj := pv.(*object)
	if !has || !isObj {
		p.add(base+"/properties", "properties must be an object of field schemas")
		return def, nil
	}
	defaults := Values{}
	var renamed map[string]string // else a name is refused by the definition's checks unless valid
	if p.server {
		renamed = fieldNames(props.keys) // schema_names.go
	}
	for _, name := range props.keys {
		path := ptr(base, "properties", name)
		f, dflt, hasDefault := im.property(name, props.vals[name], path)
		if f.Name = cmp.Or(renamed[name], name); f.Name != name && f.Label == "" {
			f.Label = name // the server's own name, as it wrote it
		}
		f.Required = required[name]
		delete(required, name)
		def.Fields = append(def.Fields, f)
		im.names = append(im.names, name)
		if hasDefault {
			if nv, ok := p.value(f, plain(dflt), path+"/default"); ok {
				defaults[f.Name] = nv
			}
		}
	}
	leftover := slices.Sorted(maps.Keys(required))
	for _, name := range leftover {
		p.add(base+"/required", "required names %q, which is not a property", clip(name))
	}
	p.checkDefinition(def, base, base+"/properties", im.at)
	return def, defaults
}

// at maps rule attributes to schema keywords.
func (im *importer) at(i int, attr string, sub ...any) string {
	if i >= len(im.names) {
		return im.base
	}
	prop := ptr(im.base, "properties", im.names[i])
	kw, renamed := schemaAttr[attr]
	if !renamed {
		kw = attr
	}
	if attr == "options" {
		kw = im.optPath[im.names[i]]
	}
	if kw == "" {
		return prop
	}
	return ptr(prop+"/"+kw, sub...)
}

func (im *importer) required() map[string]bool {
	out := map[string]bool{}
	rv, has := im.root.get("required")
	if !has {
		return out
	}
	arr, ok := rv.([]any)
	if !ok {
		im.add(im.base+"/required", "required must be an array of property names")
		return out
	}
	for j, e := range arr {
		s, ok := e.(string)
		if !ok {
			im.add(ptr(im.base, "required", j), "required lists property names (strings), not %s", typeName(e))
			continue
		}
		out[s] = true
	}
	return out
}

// property converts one property schema to a field.
func (im *importer) property(name string, v any, path string) (Field, any, bool) {
	f := Field{Name: name}
	o := im.resolve(v, path, 0)
	if o == nil {
		im.tell(path + "/type") // the refused schema is the problem; it has no type to name
		return f, nil, false
	}
	im.unknownKeys(o, path, schemaPropKeys)
	f.Label = im.str(o, "title", path)
	f.Description = im.str(o, "description", path)
	t := im.str(o, "type", path)
	k := schemaKind(t, o)
	switch {
	case t == "":
		im.add(path+"/type", "a property needs a type (string, number, integer, boolean or array)")
	case k == nil:
		im.add(path+"/type", "type %q is not a primitive the form can ask (string, number, integer, boolean, array of choices)", clip(t))
	default:
		f.Type = k.typ
		k.fromSchema(im, o, &f, path)
	}
	if !k.takes("options") {
		for _, kw := range []string{"enum", "oneOf", "anyOf", "enumNames", "items", "minItems", "maxItems"} {
			if _, has := o.get(kw); has {
				im.add(ptr(path, kw), "%s does not apply to a %s property", kw, t)
			}
		}
	}
	d, hasDefault := o.get("default")
	return f, d, hasDefault
}

// schemaKind is the kind a property of JSON Schema type t imports as.
func schemaKind(t string, o *object) *kind {
	for _, k := range kinds {
		if t != "" && k.schemaType == t && k.claims(o) {
			return k
		}
	}
	return nil
}

// choices reads string enum (+enumNames) or titled oneOf/anyOf.
func (im *importer) choices(o *object, path string) ([]Option, string, bool) {
	if ev, has := o.get("enum"); has {
		return im.enum(o, ev, path), "enum", true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if cv, has := o.get(k); has {
			return im.consts(cv, ptr(path, k)), k, true
		}
	}
	return nil, "", false
}

func (im *importer) enum(o *object, ev any, path string) []Option {
	arr, ok := ev.([]any)
	if !ok {
		im.add(path+"/enum", "enum must be an array of strings")
		return []Option{}
	}
	var names []any
	if nv, has := o.get("enumNames"); has {
		if names, ok = nv.([]any); !ok || len(names) != len(arr) {
			im.add(path+"/enumNames", "enumNames must be an array of strings as long as enum")
			names = nil
		}
	}
	opts := make([]Option, 0, len(arr))
	for j, e := range arr {
		s, ok := e.(string)
		if !ok {
			im.add(ptr(path, "enum", j), "enum values must be strings, not %s", typeName(e))
			continue
		}
		opt := Option{Value: s}
		if names != nil {
			if opt.Label, ok = names[j].(string); !ok {
				im.add(ptr(path, "enumNames", j), "enumNames must be strings")
			}
		}
		opts = append(opts, opt)
	}
	return opts
}

// consts reads [{const, title}] choices.
func (im *importer) consts(v any, path string) []Option {
	arr, ok := v.([]any)
	if !ok {
		im.add(path, "must be an array of {const, title}")
		return []Option{}
	}
	opts := make([]Option, 0, len(arr))
	for j, e := range arr {
		at := ptr(path, j)
		c := im.resolve(e, at, 0)
		if c == nil {
			continue
		}
		im.unknownKeys(c, at, []string{"const", "title", "description", "type"})
		cv, has := c.get("const")
		s, isStr := cv.(string)
		if !has || !isStr {
			im.add(at+"/const", "each choice needs a string const")
			continue
		}
		opts = append(opts, Option{Value: s, Label: im.str(c, "title", at)})
	}
	return opts
}

// items reads a multi-select's items: {enum} or {anyOf|oneOf: [{const,title}]}.
func (im *importer) items(o *object, name, path string) []Option {
	iv, has := o.get("items")
	if !has {
		im.add(path+"/items", "an array property needs items with enum or anyOf choices")
		return []Option{}
	}
	ipath := path + "/items"
	it := im.resolve(iv, ipath, 0)
	if it == nil {
		return []Option{}
	}
	im.unknownKeys(it, ipath, schemaItemKeys)
	if tv, has := it.get("type"); has && tv != "string" {
		im.add(ipath+"/type", "items must be strings")
	}
	opts, key, ok := im.choices(it, ipath)
	if !ok {
		im.add(ipath, "items need enum or anyOf choices")
		return []Option{}
	}
	im.optPath[name] = "items/" + key
	return opts
}
