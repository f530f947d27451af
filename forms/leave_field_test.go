package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

var planDef = Definition{Title: "Sign up", Fields: []Field{
	{Name: "plan", Type: Select, Label: "Plan",
		Options: []Option{{Value: "free", Label: "Free"}, {Value: "pro", Label: "Pro"}}},
	{Name: "note", Type: Text, Label: "Note"},
}}

// An optional select with no default is left empty by tab, as an
// untouched text field is; a chosen one can be cleared.
func TestOptionalSelectCanStayEmpty(t *testing.T) {
	l := start(planDef, nil, nil, nil)
	keys(l, press(tea.KeyTab))
	if l.Focused() != "note" {
		t.Fatalf("tab did not move on: focus %q", l.Focused())
	}
	if v, ok := l.Values()["plan"]; ok {
		t.Fatalf("tab past an untouched optional select chose %v", v)
	}
	keys(l, press(tea.KeyShiftTab), press(tea.KeyDown), press(tea.KeyDown))
	if v := l.Values()["plan"]; v != "pro" {
		t.Fatalf("moving to Pro chose %v", v)
	}
	if !strings.Contains(l.View(), noneLabel) {
		t.Fatalf("a chosen optional select offers no way to clear it:\n%s", l.View())
	}
	keys(l, press(tea.KeyUp), press(tea.KeyUp), press(tea.KeyTab))
	if v, ok := l.Values()["plan"]; ok {
		t.Fatalf("a cleared select still sends %v", v)
	}
	if d := l.Draft(); d["plan"] != "" {
		t.Fatalf("the draft keeps %v for a cleared select", d["plan"])
	}
	// enter on an untouched one leaves it empty too: the cursor is on none
	l = start(planDef, nil, nil, nil)
	keys(l, press(tea.KeyEnter))
	if v, ok := l.Values()["plan"]; ok {
		t.Fatalf("enter chose %v", v)
	}
}

// A filtered select shows its label and options again once the focus
// leaves it: neither blank rows nor the filter in place of its label.
func TestFilteredSelectDrawsWholeAfterLeaving(t *testing.T) {
	f := twelve(Select, "")
	def := Definition{Title: "Pick", Fields: []Field{f, {Name: "note", Type: Text, Label: "Note"}}}
	l := start(def, nil, nil, nil)
	keys(l, typed("/"), typed("opt-h"), press(tea.KeyEnter)) // enter chooses the one shown and moves on
	if v := l.Values()["idx"]; v != "h" {
		t.Fatalf("the filtered choice is %v", v)
	}
	check := func(when string) {
		t.Helper()
		v := l.View()
		if strings.Contains(v, "/opt-h") || !strings.Contains(v, "Index") {
			t.Fatalf("%s, the select shows its filter, not its label:\n%s", when, v)
		}
		if !strings.Contains(v, "opt-h") || !strings.Contains(v, "opt-i") { // huh #679: those above hidden
			t.Fatalf("%s, the select hides the options around its choice:\n%s", when, v)
		}
	}
	if l.Focused() != "note" {
		t.Fatalf("focus %q", l.Focused())
	}
	check("after leaving")
	keys(l, press(tea.KeyShiftTab))
	check("going back")
}

// An empty required field is marked when the user leaves it, and a page
// turned past problems says so on the next page.
func TestLeftEmptyRequiredFieldIsMarked(t *testing.T) {
	l := start(travelDef, nil, nil, nil)
	keys(l, press(tea.KeyTab))
	if v := l.View(); !strings.Contains(v, missingWords) {
		t.Fatalf("an empty required field left with tab is not marked:\n%s", v)
	}
	keys(l, press(tea.KeyShiftTab), typed("Lima"))
	if v := l.View(); strings.Contains(v[:strings.Index(v, "Start date")], missingWords) {
		t.Fatalf("a filled field is still marked:\n%s", v)
	}
	keys(l, press(tea.KeyTab), press(tea.KeyTab), press(tea.KeyTab), press(tea.KeyTab))
	if v := l.View(); !strings.Contains(v, "(2/2)") || !strings.Contains(v, "2 to fix on page 1") {
		t.Fatalf("the page turned past two problems with no sign of them:\n%s", v)
	}
}

// twelve is the tester's list: "events" then a to k.
func twelve(typ FieldType, description string) Field {
	f := Field{Name: "idx", Type: typ, Label: "Index", Description: description}
	for _, v := range []string{"events", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
		f.Options = append(f.Options, Option{Value: v, Label: "opt-" + v})
	}
	return f
}
