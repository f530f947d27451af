package forms

func fp(x float64) *float64 { return &x }
func ip(x int) *int         { return &x }

// travelDef mirrors the offline demo's travel form (docs/behaviour.md) plus a boolean.
var travelDef = Definition{
	Title: "Plan a trip",
	Fields: []Field{
		{Name: "destination", Type: Text, Label: "Destination", Required: true},
		{Name: "start", Type: Text, Label: "Start date", Format: "date", Required: true},
		{Name: "travelers", Type: Integer, Label: "Travelers", Min: fp(1), Max: fp(12), Required: true},
		{Name: "budget", Type: Number, Label: "Budget"},
		{Name: "transport", Type: Select, Label: "Transport", Required: true,
			Options: []Option{{Value: "train", Label: "Train"}, {Value: "plane", Label: "Plane"}, {Value: "car", Label: "Car"}}},
		{Name: "interests", Type: Multiselect, Label: "Interests", MaxItems: ip(2),
			Options: []Option{{Value: "food"}, {Value: "museums"}, {Value: "hiking"}}},
		{Name: "notes", Type: Textarea, Label: "Notes"},
		{Name: "ok", Type: Boolean, Label: "Travel insurance"},
	},
}

type templateMap map[string]Definition

func (m templateMap) Template(name string) (Definition, bool) {
	d, ok := m[name]
	return d, ok
}

var testTemplates = templateMap{"travel": travelDef}
