package forms

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Typing over a suggestion replaces it; moving past it keeps it.
func TestTypingReplacesASuggestion(t *testing.T) {
	t.Parallel()
	def := Definition{Title: "T", Fields: []Field{
		{Name: "destination", Type: Text, Label: "Destination", Required: true},
		{Name: "city", Type: Text, Label: "City", Required: true},
	}}
	l := Build(def, nil, Values{"destination": "Shanghai", "city": "Lyon"}, nil, BuildOptions{Width: 60})
	l.form.Init()
	for _, r := range "Kyoto" {
		l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if got := l.Values()["destination"]; got != "Kyoto" {
		t.Fatalf("destination = %v, want Kyoto", got)
	}
	if !l.slot("city").suggested {
		t.Fatal("an untouched suggestion stopped being one")
	}
	// Once edited, typing appends as usual.
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("!")})
	if got := l.Values()["destination"]; got != "Kyoto!" {
		t.Fatalf("destination = %v", got)
	}
}
