package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"

	"followup/forms"
)

// The parameters schemas of the input tools (docs/input-requests.md), written
// by hand so that every client sees plain JSON Schema (no inferred "type":
// ["null","array"]). forms validates the arguments fully; these tell the
// model what to send. In the file, "FIELD_TYPES" stands for forms' field
// types (its kinds table), "FIELD" for the field schema and "SOURCE" for the
// source schema.
//
//go:embed inputschemas.json
var schemaFile []byte

var schemas = func() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(schemaFile, &m); err != nil {
		panic(err)
	}
	types, _ := json.Marshal(forms.FieldTypes)
	field := bytes.Replace(m["field"], []byte(`"FIELD_TYPES"`), types, 1)
	source := bytes.Replace(m["source"], []byte(`"FIELD"`), field, 1)
	for name, s := range m {
		var b bytes.Buffer
		json.Compact(&b, bytes.Replace(s, []byte(`"SOURCE"`), source, 1))
		m[name] = b.Bytes()
	}
	return m
}()
