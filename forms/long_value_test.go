package forms

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// A value longer than its field scrolls sideways inside the field's own
// line: every line of the form stays inside the form's width, and the
// prompt's line holds the text, focused or not, at every width the screen
// builds forms at, with wide characters too. (At 100 columns a long
// destination once left "┃ >" alone and drew its text on a line of its
// own, without the focus bar.)

var longValues = map[string]string{
	"ascii": strings.Repeat("abcdefghij", 30),
	"cjk":   strings.Repeat("日本語のテキスト", 20),
	"emoji": strings.Repeat("👋🏽🎉👨\u200d👩\u200d👧", 20),
	"mixed": strings.Repeat("a日b🎉 ", 40),
}

// lineKinds are the single-line fields, each with a long value of its kind.
var lineKinds = []struct {
	f     Field
	value func(name string) any
}{
	{Field{Name: "a", Type: Text, Label: "Destination"}, func(n string) any { return longValues[n] }},
	{Field{Name: "a", Type: Text, Format: "date", Label: "Start date"}, func(n string) any { return longValues[n] }},
	{Field{Name: "a", Type: Number, Label: "Budget"}, func(string) any { return "1234567890.123456789012345678901234567890" }},
	{Field{Name: "a", Type: Integer, Label: "Travellers"}, func(string) any { return "123456789012345678901234567890123456789012" }},
}

// formWidths are widths forms are built at on screens of 50 to 200 columns.
var formWidths = []int{44, 45, 54, 60, 73, 94, 95, 120, 157, 194}

func TestLongValueStaysOnItsLine(t *testing.T) {
	for pn, profile := range map[string]termenv.Profile{"nocolour": termenv.Ascii, "colour": termenv.TrueColor} {
		lipgloss.SetColorProfile(profile)
		for _, k := range lineKinds {
			for name := range longValues {
				for _, w := range formWidths {
					t.Run(fmt.Sprintf("%s/%s/%s/%s/w%d", pn, k.f.Type, k.f.Format, name, w), func(t *testing.T) {
						checkLongValue(t, k.f, k.value(name), w)
					})
				}
			}
		}
	}
	lipgloss.SetColorProfile(termenv.Ascii)
}

func checkLongValue(t *testing.T, f Field, value any, w int) {
	def := Definition{Title: "Plan the trip", Fields: []Field{f, {Name: "b", Type: Text, Label: "Other"}}}
	l := Build(def, nil, nil, Values{"a": value}, BuildOptions{Width: w})
	pump(l.form, l.form.Init())
	check := func(when string) {
		t.Helper()
		view := l.View()
		for _, line := range strings.Split(view, "\n") {
			if got, term := lipgloss.Width(line), ansi.StringWidthWc(line); got > w || term > w {
				t.Fatalf("%s: a line of %d cells (%d to a terminal) in %d:\n%s", when, got, term, w, view)
			}
		}
		if !promptHoldsText(view) {
			t.Fatalf("%s: the prompt's line does not hold the text:\n%s", when, view)
		}
	}
	check("focused, cursor at the end")
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyHome))})
	check("focused, cursor at the start")
	for range 7 {
		pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyRight))})
	}
	check("focused, cursor inside")
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyEnd)), l.Update(typed("xy日"))})
	check("typed at the end")
	l.SetFocused(false)
	check("the form unfocused")
	l.SetFocused(true)
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
	check("blurred")
}

// promptHoldsText reports whether the line with the first field's prompt
// has text after the prompt, beside the focus bar's column.
func promptHoldsText(view string) bool {
	for _, line := range strings.Split(ansi.Strip(view), "\n") {
		body, ok := strings.CutPrefix(strings.TrimLeft(line, "┃ "), "> ")
		if !ok {
			continue
		}
		return strings.Trim(body, " "+AsciiCursor) != ""
	}
	return false
}

// A long unbroken word in a textarea wraps inside the field.
func TestTextareaLongWordStaysInside(t *testing.T) {
	for name, v := range longValues {
		for _, w := range formWidths {
			t.Run(fmt.Sprintf("%s/w%d", name, w), func(t *testing.T) {
				def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}, {Name: "b", Type: Text, Label: "Other"}}}
				l := Build(def, nil, nil, Values{"a": strings.ReplaceAll(v, " ", "")}, BuildOptions{Width: w})
				pump(l.form, l.form.Init())
				for _, when := range []string{"focused", "blurred"} {
					view := l.View()
					for _, line := range strings.Split(view, "\n") {
						if got, term := lipgloss.Width(line), ansi.StringWidthWc(line); got > w || term > w {
							t.Fatalf("%s: a line of %d cells (%d to a terminal) in %d:\n%s", when, got, term, w, view)
						}
					}
					pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
				}
			})
		}
	}
}
