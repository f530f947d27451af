package forms

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

const designExample = `{
  "requestKey": "travel-destination-1",
  "reason": "A destination is needed to prepare the itinerary",
  "source": {"kind": "dynamic", "definition": {"title": "Add a destination", "description": "optional longer text",
      "fields": [
        {"name": "destination", "type": "text", "label": "Destination", "required": true},
        {"name": "year", "type": "integer", "min": 2000, "max": 2100}
      ]}},
  "prefill": {"destination": "Shanghai"},
  "supplied": {"year": 2026},
  "context": {"operation": "plan_itinerary"},
  "expiresAt": "2026-01-01T00:00:00Z"
}`

func TestSmokeDesignExample(t *testing.T) {
	d, probs := ParseDeclaration([]byte(designExample), nil)
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if d.Complete() {
		t.Fatal("complete")
	}
	if d.Supplied["year"] != int64(2026) || d.Prefill["destination"] != "Shanghai" {
		t.Fatalf("values: %#v %#v", d.Supplied, d.Prefill)
	}
	if string(d.Context) != `{"operation":"plan_itinerary"}` {
		t.Fatalf("context %s", d.Context)
	}
	l := Build(d.Definition, d.Supplied, d.Prefill, nil, BuildOptions{Width: 60})
	f := l.form
	f.Init()
	if !l.slot("destination").suggested {
		t.Fatal("not suggested")
	}
	f.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("!")})
	_ = f.View()
	if l.slot("destination").suggested || l.Values()["destination"] != "Shanghai!" {
		t.Fatalf("after edit: %v %v", l.slot("destination").suggested, l.Values())
	}
	t.Log(f.View())
	t.Log(Review(d.Definition, d.Supplied, l.Values(), 60))
}
