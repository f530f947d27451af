package forms

import (
	"reflect"
	"testing"
)

func schemaDecl(schema string, extra string) string {
	return `{"requestKey":"s-1","source":{"kind":"schema","requestedSchema":` + schema + `}` + extra + `}`
}

const mcpSchema = `{
  "type": "object",
  "title": "Contact",
  "description": "How to reach you",
  "$defs": {"size": {"type": "string", "enum": ["s", "m", "l"], "enumNames": ["Small", "Medium", "Large"]}},
  "properties": {
    "name":   {"type": "string", "title": "Name", "minLength": 1, "maxLength": 50},
    "email":  {"type": "string", "format": "email", "description": "Work address"},
    "age":    {"type": "integer", "minimum": 0, "maximum": 130, "default": 30},
    "score":  {"type": "number", "maximum": 1.5},
    "agree":  {"type": "boolean", "default": false},
    "size":   {"$ref": "#/$defs/size", "title": "Size", "default": "m"},
    "tier":   {"type": "string", "oneOf": [{"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}]},
    "tags":   {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "minItems": 1, "maxItems": 2},
    "colors": {"type": "array", "items": {"anyOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]}}
  },
  "required": ["name", "email", "size"]
}`

func TestSchemaImport(t *testing.T) {
	d, probs := ParseDeclaration([]byte(schemaDecl(mcpSchema, `,"prefill":{"age":40}`)), nil)
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	def := d.Definition
	if def.Title != "Contact" || def.Description != "How to reach you" || len(def.Fields) != 9 {
		t.Fatalf("definition: %+v", def)
	}
	want := map[string]FieldType{"name": Text, "email": Text, "age": Integer, "score": Number, "agree": Boolean,
		"size": Select, "tier": Select, "tags": Multiselect, "colors": Multiselect}
	for i, f := range def.Fields {
		if want[f.Name] != f.Type {
			t.Errorf("field %d %s: type %s, want %s", i, f.Name, f.Type, want[f.Name])
		}
	}
	names := []string{}
	for _, f := range def.Fields {
		names = append(names, f.Name)
	}
	if !reflect.DeepEqual(names, []string{"name", "email", "age", "score", "agree", "size", "tier", "tags", "colors"}) {
		t.Errorf("property order lost: %v", names)
	}
	size, _ := def.FieldByName("size")
	if !size.Required || size.Label != "Size" || size.Options[1] != (Option{Value: "m", Label: "Medium"}) {
		t.Errorf("size: %+v", size)
	}
	if age, _ := def.FieldByName("age"); age.Required || *age.Min != 0 || *age.Max != 130 {
		t.Errorf("age: %+v", age)
	}
	if tags, _ := def.FieldByName("tags"); *tags.MinItems != 1 || *tags.MaxItems != 2 || len(tags.Options) != 3 {
		t.Errorf("tags: %+v", tags)
	}
	if colors, _ := def.FieldByName("colors"); colors.Options[0] != (Option{Value: "r", Label: "Red"}) {
		t.Errorf("colors: %+v", colors)
	}
	if email, _ := def.FieldByName("email"); email.Format != "email" || email.Description != "Work address" {
		t.Errorf("email: %+v", email)
	}
	// defaults become prefill, but the declaration's own prefill wins
	wantPrefill := Values{"age": int64(40), "agree": false, "size": "m"}
	if !reflect.DeepEqual(d.Prefill, wantPrefill) {
		t.Errorf("prefill %#v, want %#v", d.Prefill, wantPrefill)
	}
}

func TestSchemaImportRules(t *testing.T) {
	t.Parallel()
	const base = "/source/requestedSchema"
	prop := func(p string) string { return `{"type":"object","properties":{"x":` + p + `}}` }
	cases := []declCase{
		{"remote ref", prop(`{"$ref":"https://example.com/s.json"}`), []string{base + "/properties/x/$ref"}, "not local"},
		{"relative file ref", prop(`{"$ref":"other.json#/a"}`), []string{base + "/properties/x/$ref"}, "nothing is fetched"},
		{"dynamic ref", prop(`{"$dynamicRef":"#meta"}`), []string{base + "/properties/x/$dynamicRef"}, "not supported"},
		{"dangling ref", prop(`{"$ref":"#/$defs/none"}`), []string{base + "/properties/x/$ref"}, "points at nothing"},
		{"cyclic ref", `{"type":"object","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, []string{base + "/properties/x/$ref"}, "cyclic"},
		{"ref to root", prop(`{"$ref":"#"}`), []string{base + "/properties/x/type"}, "not a primitive"},
		{"nested object", prop(`{"type":"object","properties":{}}`), []string{base + "/properties/x/type"}, "not a primitive"},
		{"missing type", prop(`{"title":"X"}`), []string{base + "/properties/x/type"}, "needs a type"},
		{"root not object type", `{"type":"array","properties":{"x":{"type":"string"}}}`, []string{base + "/type"}, `"type": "object"`},
		{"root not an object", `[1]`, []string{base}, "must be an object"},
		{"no properties", `{"type":"object"}`, []string{base + "/properties"}, "properties"},
		{"empty properties", `{"type":"object","properties":{}}`, []string{base + "/properties"}, "at least one field"},
		{"33 properties", `{"type":"object","properties":` + manyProps(33) + `}`, []string{base + "/properties"}, "limit is 32"},
		{"required unknown", `{"type":"object","properties":{"x":{"type":"string"}},"required":["x","y"]}`, []string{base + "/required"}, `"y"`},
		{"required not array", `{"type":"object","properties":{"x":{"type":"string"}},"required":"x"}`, []string{base + "/required"}, "array"},
		{"enumNames mismatch", prop(`{"type":"string","enum":["a","b"],"enumNames":["A"]}`), []string{base + "/properties/x/enumNames"}, "as long as enum"},
		{"enum not strings", prop(`{"type":"string","enum":[1]}`), []string{base + "/properties/x/enum/0"}, "strings"},
		{"duplicate enum", prop(`{"type":"string","enum":["a","a"]}`), []string{base + "/properties/x/enum/1"}, "duplicate option"},
		{"oneOf without const", prop(`{"type":"string","oneOf":[{"title":"A"}]}`), []string{base + "/properties/x/oneOf/0/const"}, "const"},
		{"array without items", prop(`{"type":"array"}`), []string{base + "/properties/x/items"}, "items"},
		{"items without choices", prop(`{"type":"array","items":{"type":"string"}}`), []string{base + "/properties/x/items"}, "enum or anyOf"},
		{"items not strings", prop(`{"type":"array","items":{"type":"number","enum":["1"]}}`), []string{base + "/properties/x/items/type"}, "strings"},
		{"minItems above options", prop(`{"type":"array","items":{"enum":["a"]},"minItems":2}`), []string{base + "/properties/x/minItems"}, "more than"},
		{"minimum above maximum", prop(`{"type":"number","minimum":3,"maximum":1}`), []string{base + "/properties/x/minimum"}, "greater than"},
		{"minLength above maxLength", prop(`{"type":"string","minLength":3,"maxLength":1}`), []string{base + "/properties/x/minLength"}, "greater than"},
		{"unknown format", prop(`{"type":"string","format":"ipv4"}`), []string{base + "/properties/x/format"}, "unknown format"},
		{"enum on number", prop(`{"type":"number","enum":[1]}`), []string{base + "/properties/x/enum"}, "does not apply"},
		{"unknown keyword", prop(`{"type":"string","allOf":[]}`), []string{base + "/properties/x"}, `"allOf"`},
		{"unknown root keyword", `{"type":"object","if":{},"properties":{"x":{"type":"string"}}}`, []string{base}, `"if"`},
		{"additionalProperties true", `{"type":"object","additionalProperties":true,"properties":{"x":{"type":"string"}}}`, []string{base + "/additionalProperties"}, "false"},
		{"bad property name", `{"type":"object","properties":{"a b":{"type":"string"}}}`, []string{base + "/properties/a b"}, "must match"},
		{"default wrong type", prop(`{"type":"integer","default":"3"}`), []string{base + "/properties/x/default"}, "must be a number"},
		{"default out of range", prop(`{"type":"integer","maximum":3,"default":4}`), []string{base + "/properties/x/default"}, "at most 3"},
		{"default not an option", prop(`{"type":"string","enum":["a"],"default":"b"}`), []string{base + "/properties/x/default"}, "not one of"},
		{"pattern does not compile", prop(`{"type":"string","pattern":"["}`), []string{base + "/properties/x/pattern"}, "compile"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, probs := ParseDeclaration([]byte(schemaDecl(tc.in, "")), nil)
			if d != nil {
				t.Fatalf("accepted; want problems at %v", tc.paths)
			}
			assertProblems(t, probs, tc.paths, tc.msg)
		})
	}
}

func manyProps(n int) string {
	s := "{"
	for i := 0; i < n; i++ {
		if i > 0 {
			s += ","
		}
		s += `"p` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":{"type":"string"}`
	}
	return s + "}"
}
