package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A resize builds the page again; the cursor of a one-line field stays
// where the user put it (it used to jump to the end of the text).
func TestResizeKeepsTheLineCursor(t *testing.T) {
	def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Text, Label: "Destination"}, {Name: "b", Type: Integer, Label: "Travellers"}}}
	l := Build(def, nil, nil, nil, BuildOptions{Width: 54})
	pump(l.form, l.form.Init())
	pumpLive(l, []tea.Cmd{l.Update(typed("Oslo and Bergen")), l.Update(press(tea.KeyHome)), l.Update(press(tea.KeyRight))})
	if v := l.View(); !strings.Contains(v, "> O|slo and Bergen") {
		t.Fatalf("the cursor is not after the first letter:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Resize(44, 0)})
	if v := l.View(); !strings.Contains(v, "> O|slo and Bergen") {
		t.Fatalf("after a resize the cursor moved:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(typed("x"))})
	if got := l.Values()["a"]; got != "Oxslo and Bergen" {
		t.Fatalf("typed after the resize: %q", got)
	}
}
