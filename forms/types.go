// Package forms owns the input-request contract: declarations and their field
// types, the limits of docs/input-requests.md, validation of declarations and answers, MCP
// elicitation schema import, and building a keyboard form (huh) from a
// definition, its prefill and a saved draft.
//
// forms touches no SQL, no model and no clock beyond what it is given.
package forms

import (
	"encoding/json"
	"time"
)

// FieldType names the kind of value a field collects.
type FieldType string

// The field types of docs/input-requests.md.
const (
	Text        FieldType = "text"
	Textarea    FieldType = "textarea"
	Number      FieldType = "number"
	Integer     FieldType = "integer"
	Boolean     FieldType = "boolean"
	Select      FieldType = "select"
	Multiselect FieldType = "multiselect"
)

// FieldTypes lists every field type in a stable order: the order of the
// field-kind table (kinds.go), which fills it.
var FieldTypes []FieldType

// Source kinds of a declaration.
const (
	SourceDynamic  = "dynamic"
	SourceSchema   = "schema"
	SourceTemplate = "template"
)

// SourceKinds lists every source kind in a stable order.
var SourceKinds = []string{SourceDynamic, SourceSchema, SourceTemplate}

// Option is one choice of a select or multiselect field.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label,omitempty"`
}

// Field is one question of a form.
type Field struct {
	Name        string    `json:"name"`
	Type        FieldType `json:"type"`
	Label       string    `json:"label,omitempty"`
	Description string    `json:"description,omitempty"`
	Placeholder string    `json:"placeholder,omitempty"`
	Required    bool      `json:"required"`
	Options     []Option  `json:"options,omitempty"`
	Min         *float64  `json:"min,omitempty"`
	Max         *float64  `json:"max,omitempty"`
	MinLength   *int      `json:"minLength,omitempty"`
	MaxLength   *int      `json:"maxLength,omitempty"`
	Pattern     string    `json:"pattern,omitempty"`
	Format      string    `json:"format,omitempty"`
	MinItems    *int      `json:"minItems,omitempty"`
	MaxItems    *int      `json:"maxItems,omitempty"`
}

// Definition is a resolved form: what every source kind becomes.
type Definition struct {
	Title       string  `json:"title"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields"`
}

// Source says where a declaration's definition comes from.
type Source struct {
	Kind       string          `json:"kind"`
	Definition *Definition     `json:"definition,omitempty"`
	Schema     json.RawMessage `json:"requestedSchema,omitempty"`
	Template   string          `json:"template,omitempty"`
}

// Values maps field names to values: string, bool, float64 (number),
// int64 (integer) or []string (multiselect), once normalised.
type Values map[string]any

// Declaration is a validated input_request argument object.
type Declaration struct {
	RequestKey string          `json:"requestKey"`
	Reason     string          `json:"reason,omitempty"`
	Source     Source          `json:"source"`
	Prefill    Values          `json:"prefill,omitempty"`
	Supplied   Values          `json:"supplied,omitempty"`
	Context    json.RawMessage `json:"context,omitempty"`
	ExpiresAt  *time.Time      `json:"expiresAt,omitempty"`

	// Definition is the resolved form, whatever the source kind.
	Definition Definition `json:"-"`
}

// Problem is one reason an input was refused. Path is a JSON Pointer into
// the input that was checked.
//
// A list is bounded (MaxProblems): when more were found, its last entry
// has an empty Path and More counts the problems not listed.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	More    int    `json:"more,omitempty"`
}

// Templates looks up host-registered templates by name.
type Templates interface {
	Template(name string) (Definition, bool)
}
