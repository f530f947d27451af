package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// The drawing kept between changes is never stale: after
// every key of a session over every field type, the form drawn from the
// kept drawings equals the form drawn afresh.
func TestKeptDrawingsAreNeverStale(t *testing.T) {
	def := bigDef()
	def.Fields[1].Description = "**bold** guidance"
	l := start(def, nil, Values{"f00": "hello", "f06": "b"}, Values{"f04": "20"})
	fresh := func() string {
		l.drawing = nil
		return l.View()
	}
	keys := []tea.Msg{typed("x"), press(tea.KeyTab), typed("2025-13-40"), press(tea.KeyTab), typed("notes"),
		press(tea.KeyEnter), press(tea.KeyBackspace), typed("7"), press(tea.KeyTab), press(tea.KeyRight),
		press(tea.KeyShiftTab), press(tea.KeyShiftTab), press(tea.KeyBackspace), press(tea.KeyTab), press(tea.KeyTab),
		press(tea.KeyTab), press(tea.KeyTab), press(tea.KeyDown), press(tea.KeyTab), typed("x"), press(tea.KeyShiftTab)}
	for i, k := range keys {
		pumpLive(l, []tea.Cmd{l.Update(k)})
		if i == 5 {
			l.SetFocused(false)
		}
		if i == 7 {
			l.SetFocused(true)
			l.SetProblems([]Problem{{Path: "/values/f01", Message: "told"}})
		}
		if i == 12 {
			pumpLive(l, []tea.Cmd{l.Resize(70, 30)})
		}
		kept := l.View()
		if now := fresh(); kept != now {
			t.Fatalf("after key %d (%v) the kept drawing is stale:\n--- kept\n%s\n--- fresh\n%s", i, k, kept, now)
		}
	}
}

// A page whose descriptions wrap shows every field: huh's viewport, sized
// before the fields knew their width, cut the last ones off.
func TestWrappedDescriptionsHideNoField(t *testing.T) {
	def := Definition{Title: "T", Description: strings.Repeat("long words here ", 12), Fields: []Field{
		{Name: "a", Type: Text, Label: "First", Description: strings.Repeat("field guidance ", 12)},
		{Name: "b", Type: Text, Label: "Second"},
	}}
	l := start(def, nil, nil, nil)
	if v := l.View(); !strings.Contains(v, "Second") || !strings.Contains(v, "First") {
		t.Fatalf("a field is cut off:\n%s", v)
	}
	// Bounded in height, the page scrolls in huh's viewport to the focus.
	pumpLive(l, []tea.Cmd{l.Resize(60, 8)})
	if v := l.View(); lipgloss.Height(v) > 8 || !strings.Contains(v, "First") {
		t.Fatalf("bounded page:\n%s", v)
	}
}

// A message that is not the form's (the screen's spinner) does nothing to
// it: the drawing is kept, nothing runs.
func TestForeignMessagesAreIgnored(t *testing.T) {
	l := start(travelDef, nil, nil, nil)
	before := l.View()
	if cmd := l.Update(spinner.TickMsg{}); cmd != nil || l.drawing == nil {
		t.Fatalf("a spinner tick reached the form (cmd %v, drawn anew %v)", cmd != nil, l.drawing == nil)
	}
	if l.View() != before {
		t.Fatal("the drawing changed")
	}
	if !ownMessage(tea.KeyMsg{}) || !ownMessage(huh.NextField()) || ownMessage(nil) {
		t.Fatal("the form's own messages are not recognised")
	}
}
