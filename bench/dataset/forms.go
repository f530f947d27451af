package dataset

import (
	"fmt"

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
		key: "travel",
		def: forms.Definition{Title: "Plan the trip", Description: "A few details for the itinerary", Fields: []forms.Field{
			{Name: "destination", Type: forms.Text, Label: "Destination", Required: true},
			{Name: "start", Type: forms.Text, Format: "date", Label: "Start date", Required: true},
			{Name: "travelers", Type: forms.Integer, Label: "Travelers", Required: true, Min: fp(1), Max: fp(12)},
			{Name: "budget", Type: forms.Number, Label: "Budget (EUR)"},
			{Name: "transport", Type: forms.Select, Label: "Transport", Required: true,
				Options: []forms.Option{{Value: "train"}, {Value: "plane"}, {Value: "car"}}},
			{Name: "interests", Type: forms.Multiselect, Label: "Interests",
				Options: []forms.Option{{Value: "food"}, {Value: "museums"}, {Value: "hiking"}}},
			{Name: "notes", Type: forms.Textarea, Label: "Notes"},
		}},
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

// BigForm is a form at the 32-field limit mixing every field type, as the
// keystroke budget of docs/performance.md names.
func BigForm() forms.Definition {
	def := forms.Definition{Title: "Project intake", Description: "Everything about the new project"}
	for i := range forms.MaxFields {
		f := forms.Field{Name: fmt.Sprintf("q%02d", i), Label: fmt.Sprintf("Question %d", i+1),
			Description: "Some guidance for this question", Required: i%3 == 0}
		switch i % 8 {
		case 0, 1:
			f.Type = forms.Text
		case 2:
			f.Type, f.Format = forms.Text, "date"
		case 3:
			f.Type = forms.Textarea
		case 4:
			f.Type, f.Min, f.Max = forms.Integer, fp(1), fp(12)
		case 5:
			f.Type = forms.Boolean
		case 6:
			f.Type, f.Options = forms.Select, []forms.Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}
		case 7:
			f.Type, f.Options, f.MaxItems = forms.Multiselect, []forms.Option{{Value: "x"}, {Value: "y"}, {Value: "z"}}, ip(2)
		}
		def.Fields = append(def.Fields, f)
	}
	return def
}

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
