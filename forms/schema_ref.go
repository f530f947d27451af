package forms

import (
	"encoding/json"
	"strings"
)

// resolve follows local $refs ("#/..." JSON Pointers into the schema).
// Remote and dynamic refs are refused and never fetched.
func (im *importer) resolve(v any, path string, hops int) *object {
	o, ok := v.(*object)
	if !ok {
		im.add(path, "a schema must be an object, not %s", typeName(v))
		return nil
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if _, has := o.get(k); has {
			im.add(ptr(path, k), "%s is not supported: only local $ref (#/...) is", k)
			return nil
		}
	}
	rv, has := o.get("$ref")
	if !has {
		return o
	}
	ref, isStr := rv.(string)
	switch {
	case !isStr:
		im.add(path+"/$ref", "$ref must be a string")
		return nil
	case !strings.HasPrefix(ref, "#"):
		im.add(path+"/$ref", "$ref %q is not local: only #/... refs are resolved, nothing is fetched", clip(ref))
		return nil
	case hops >= maxRefHops:
		im.add(path+"/$ref", "$ref chain is longer than %d or cyclic", maxRefHops)
		return nil
	}
	target, ok := lookupPointer(im.root, strings.TrimPrefix(ref, "#"))
	if !ok {
		im.add(path+"/$ref", "$ref %q points at nothing in this schema", clip(ref))
		return nil
	}
	resolved := im.resolve(target, path, hops+1)
	if resolved == nil {
		return nil
	}
	// Sibling keywords of $ref refine the target (JSON Schema 2020-12).
	merged := &object{vals: map[string]any{}}
	for _, k := range resolved.keys {
		merged.keys = append(merged.keys, k)
		merged.vals[k] = resolved.vals[k]
	}
	for _, k := range o.keys {
		if k == "$ref" {
			continue
		}
		if _, dup := merged.vals[k]; !dup {
			merged.keys = append(merged.keys, k)
		}
		merged.vals[k] = o.vals[k]
	}
	return merged
}

// lookupPointer resolves a JSON Pointer (RFC 6901) within a decoded value.
func lookupPointer(root any, pointer string) (any, bool) {
	if pointer == "" {
		return root, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false // anchors ("#foo") are not supported
	}
	cur := root
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			next, ok := c.get(tok)
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			var idx int
			if err := json.Unmarshal([]byte(tok), &idx); err != nil || idx < 0 || idx >= len(c) {
				return nil, false
			}
			cur = c[idx]
		default:
			return nil, false
		}
	}
	return cur, true
}
