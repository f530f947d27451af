// Package formdefs holds the forms the benchmarks ask: the large
// database's (bench/dataset) and the floor's (bench/floor), which must not
// link followup's storage.
package formdefs

import (
	"fmt"

	"followup/forms"
)

func fp(f float64) *float64 { return &f }
func ip(i int) *int         { return &i }

// Travel is the 7-field form the screen opens on in the large database.
func Travel() forms.Definition {
	return forms.Definition{Title: "Plan the trip", Description: "A few details for the itinerary", Fields: []forms.Field{
		{Name: "destination", Type: forms.Text, Label: "Destination", Required: true},
		{Name: "start", Type: forms.Text, Format: "date", Label: "Start date", Required: true},
		{Name: "travelers", Type: forms.Integer, Label: "Travelers", Required: true, Min: fp(1), Max: fp(12)},
		{Name: "budget", Type: forms.Number, Label: "Budget (EUR)"},
		{Name: "transport", Type: forms.Select, Label: "Transport", Required: true,
			Options: []forms.Option{{Value: "train"}, {Value: "plane"}, {Value: "car"}}},
		{Name: "interests", Type: forms.Multiselect, Label: "Interests",
			Options: []forms.Option{{Value: "food"}, {Value: "museums"}, {Value: "hiking"}}},
		{Name: "notes", Type: forms.Textarea, Label: "Notes"},
	}}
}

// Big is a form at the 32-field limit mixing every field type, as the
// keystroke budget of docs/performance.md names.
func Big() forms.Definition {
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
