package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// tallTrip is the trip form on a page taller than its room, the focus on
// its first field.
func tallTrip(t *testing.T, height int) *Live {
	t.Helper()
	l := start(travelDef, nil, nil, nil)
	l.SetMaxHeight(height)
	if !l.tall {
		t.Fatalf("the page fits in %d lines: no window to test", height)
	}
	return l
}

// leave types text in the focused field and moves past it with key.
func leave(l *Live, text string, k tea.KeyType) {
	if text != "" {
		pumpLive(l, []tea.Cmd{l.Update(typed(text))})
	}
	pumpLive(l, []tea.Cmd{l.Update(press(k))})
}

// A problem found as the user leaves a field is seen even when the field
// scrolled out of view: one line at the window's edge toward it says it,
// in words, until the field is back in view or fixed.
func TestAProblemOutOfViewIsSaid(t *testing.T) {
	l := tallTrip(t, 5) // one field at a time
	leave(l, "Oslo", tea.KeyTab)
	leave(l, "2025-13-40", tea.KeyTab) // now on the travellers
	v := l.View()
	if strings.Count(v, "\n")+1 > 5 {
		t.Fatalf("the page is taller than its room:\n%s", v)
	}
	if !strings.Contains(v, "Travelers") || !strings.Contains(v, "↑ ✗ Start date is not a valid date") {
		t.Fatalf("the start date's problem is out of view and unsaid:\n%s", v)
	}
	// Back on the field, it shows beside it; the note goes.
	leave(l, "2", tea.KeyShiftTab)
	if v := l.View(); !strings.Contains(v, "✗ Start date is not a valid date") || strings.Contains(v, "↑") {
		t.Fatalf("back on the start date:\n%s", v)
	}
	// A field left going up is below the window: the note is at its foot.
	leave(l, "", tea.KeyShiftTab) // on the destination, the date below
	v = l.View()
	lines := strings.Split(v, "\n")
	if !strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "↓ ✗ Start date") {
		t.Fatalf("no note at the foot for the problem below:\n%s", v)
	}
	// Fixed, it is said no more.
	leave(l, "", tea.KeyTab)
	pumpLive(l, []tea.Cmd{l.Update(tea.KeyMsg{Type: tea.KeyCtrlU})})
	leave(l, "2026-07-01", tea.KeyTab)
	if v := l.View(); strings.Contains(v, "✗") {
		t.Fatalf("a fixed problem is still said:\n%s", v)
	}
}

// The window moves as little as keeps the focused field whole in view:
// with room for two fields, the one just left stays on screen, its
// problem beside it.
func TestTheWindowKeepsTheFieldJustLeft(t *testing.T) {
	l := tallTrip(t, 9)
	leave(l, "Oslo", tea.KeyTab)
	leave(l, "2025-13-40", tea.KeyTab)
	v := l.View()
	if !strings.Contains(v, "Travelers") || !strings.Contains(v, "✗ Start date is not a valid date") || strings.Contains(v, "↑") {
		t.Fatalf("the field just left is out of view:\n%s", v)
	}
}

// Where the window has no row to spare beside the whole focused field,
// the page's description gives its place to the note: the field being
// typed in is never cut for it.
func TestTheNoteNeverCutsTheFocusedField(t *testing.T) {
	def := travelDef
	def.Description = "A few details so the itinerary fits."
	l := start(def, nil, nil, nil)
	l.SetMaxHeight(5) // the title, the description, one field
	leave(l, "Oslo", tea.KeyTab)
	leave(l, "2025-13-40", tea.KeyTab)
	v := l.View()
	lines := strings.Split(v, "\n")
	if len(lines) > 5 || !strings.Contains(v, "↑ ✗ Start date") || !strings.Contains(lines[len(lines)-1], ">") ||
		!strings.Contains(v, "Travelers") || strings.Contains(v, "A few details") {
		t.Fatalf("the note cut the focused field, or the description stayed:\n%s", v)
	}
}

// With more than one problem out of view, the note gives their count
// before the first one's words, so a narrow pane cuts words, not the
// count.
func TestTheNoteCountsProblemsFirst(t *testing.T) {
	l := tallTrip(t, 5)
	pumpLive(l, []tea.Cmd{l.Resize(40, 5)})
	leave(l, "Oslo", tea.KeyTab)
	leave(l, "2025-13-40", tea.KeyTab)
	leave(l, "99", tea.KeyTab) // travellers: 1–12
	v := l.View()
	if !strings.Contains(v, "↑ ✗ 2 problems: Start date") {
		t.Fatalf("two problems above, the note does not count them first:\n%s", v)
	}
}
