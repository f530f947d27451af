package forms

import (
	"bytes"
	"encoding/json"
)

// RequestedSchema is def as an MCP elicitation requestedSchema (docs/input-requests.md):
// a flat object of primitive properties in field order, each written by its
// field's kind. Importing it back (source kind schema) gives def again,
// except what the schema cannot say: a textarea comes back as a text field
// and a placeholder is left out.
func RequestedSchema(def Definition) json.RawMessage {
	root := &object{}
	root.set("type", "object")
	if def.Title != "" {
		root.set("title", def.Title)
	}
	if def.Description != "" {
		root.set("description", def.Description)
	}
	props := &object{}
	required := []any{}
	for _, f := range def.Fields {
		prop := &object{}
		if k := kindOf(f.Type); k != nil {
			k.toSchema(f, prop)
		}
		if f.Label != "" {
			prop.set("title", f.Label)
		}
		if f.Description != "" {
			prop.set("description", f.Description)
		}
		props.set(f.Name, prop)
		if f.Required {
			required = append(required, f.Name)
		}
	}
	root.set("properties", props)
	root.set("required", required)
	b, err := marshalNoEscape(root)
	if err != nil {
		return nil
	}
	return b
}

// set adds or replaces a member, keeping the order members were first set.
func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, has := o.vals[k]; !has {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// MarshalJSON writes the members in their order.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshalNoEscape(k)
		if err != nil {
			return nil, err
		}
		val, err := marshalNoEscape(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
