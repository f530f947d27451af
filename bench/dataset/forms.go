package dataset

import (
	"followup/bench/formdefs"

	"followup/forms"
)

// kind is one shape of question the generated agent asks, with a value it
// would be answered with.
type kind struct {
	key      string
	template string // non-empty for template-sourced requests
	def      forms.Definition
	prefill  forms.Values
	answer   forms.Values
}

func fp(f float64) *float64 { return &f }
func ip(i int) *int         { return &i }

// kinds are the questions a realistic history is made of: the demo agent's
// forms, a template, a schema-shaped contact form and the 32-field maximum.
var kinds = []kind{
	{
		key: "deploy-environment",
		def: forms.Definition{Title: "Choose an environment", Fields: []forms.Field{
			{Name: "environment", Type: forms.Select, Label: "Environment", Required: true,
				Options: []forms.Option{{Value: "production"}, {Value: "staging"}}},
		}},
		answer: forms.Values{"environment": "staging"},
	},
	{
		key:     "travel",
		def:     formdefs.Travel(),
		prefill: forms.Values{"destination": "Shanghai"},
		answer: forms.Values{"destination": "Lisbon", "start": "2026-05-04", "travelers": int64(2),
			"transport": "train", "interests": []string{"food", "museums"}},
	},
	{
		key: "details",
		def: forms.Definition{Title: "What should I work on?", Fields: []forms.Field{
			{Name: "details", Type: forms.Text, Label: "Details", Required: true},
		}},
		answer: forms.Values{"details": "Tidy the release notes"},
	},
	{
		key:      "bug-report",
		template: "bug-report",
		def: forms.Definition{Title: "Report a bug", Fields: []forms.Field{
			{Name: "summary", Type: forms.Text, Label: "Summary", Required: true, MaxLength: ip(120)},
			{Name: "severity", Type: forms.Select, Label: "Severity", Required: true,
				Options: []forms.Option{{Value: "low"}, {Value: "medium"}, {Value: "high"}}},
			{Name: "steps", Type: forms.Textarea, Label: "Steps to reproduce", Required: true},
			{Name: "regression", Type: forms.Boolean, Label: "Worked before?"},
		}},
		answer: forms.Values{"summary": "Crash on save", "severity": "high", "steps": "1. open\n2. save", "regression": true},
	},
	{
		key: "contact",
		def: forms.Definition{Title: "Contact details", Fields: []forms.Field{
			{Name: "name", Type: forms.Text, Label: "Name", Required: true},
			{Name: "email", Type: forms.Text, Format: "email", Label: "Email", Required: true},
			{Name: "newsletter", Type: forms.Boolean, Label: "Newsletter", Required: false},
		}},
		prefill: forms.Values{"newsletter": false},
		answer:  forms.Values{"name": "Ada", "email": "ada@example.com", "newsletter": false},
	},
	{key: "everything", def: BigForm(), answer: bigAnswer()},
}

// bigKind is the index of the 32-field form in kinds.
const bigKind = 5

// BigForm is the 32-field form (bench/formdefs).
func BigForm() forms.Definition { return formdefs.Big() }

func bigAnswer() forms.Values {
	v := forms.Values{}
	for _, f := range BigForm().Fields {
		if !f.Required {
			continue
		}
		switch f.Type {
		case forms.Text, forms.Textarea:
			v[f.Name] = "value"
			if f.Format == "date" {
				v[f.Name] = "2026-03-01"
			}
		case forms.Integer:
			v[f.Name] = int64(3)
		case forms.Boolean:
			v[f.Name] = true
		case forms.Select:
			v[f.Name] = "b"
		case forms.Multiselect:
			v[f.Name] = []string{"x"}
		}
	}
	return v
}
