package forms

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// A field whose head grows after the page was fitted — a problem found as
// the user left it, two lines where its guidance was one — still keeps
// its input in view when the user comes back to it, and the page stays
// inside its height. (At 50×15 the start date's problem pushed the date
// typed out of sight: huh gives a field a height only when it is taller
// than its room at the moment the height is set.)
func TestGrownHeadKeepsTheInputInView(t *testing.T) {
	def := Definition{Title: "Plan the trip", Description: "A few details so the itinerary fits.", Fields: travelDef.Fields[:3]}
	for _, w := range []int{44, 54} {
		for height := 4; height <= 12; height++ {
			t.Run(fmt.Sprintf("w%d/h%d", w, height), func(t *testing.T) {
				l := Build(def, nil, nil, nil, BuildOptions{Width: w})
				pump(l.Form(), l.Form().Init())
				l.SetMaxHeight(height)
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
				pumpLive(l, []tea.Cmd{l.Update(typed("2025-13-40"))})
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
				check := func(when string) {
					t.Helper()
					v := l.View()
					if got := lipgloss.Height(v); got > height {
						t.Fatalf("%s: %d lines drawn in %d:\n%s", when, got, height, v)
					}
					if l.Focused() == "start" && !strings.Contains(v, "> 2025-13-40") {
						t.Fatalf("%s: the date typed is out of view:\n%s", when, v)
					}
				}
				check("left")
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyShiftTab))})
				if l.Focused() != "start" {
					t.Fatalf("shift+tab went to %q", l.Focused())
				}
				check("back")
				pumpLive(l, []tea.Cmd{l.Update(typed("1"))}) // the problem goes as it is edited
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyBackspace))})
				check("edited")
			})
		}
	}
}
