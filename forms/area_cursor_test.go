package forms

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"followup/forms/cmdtest"
)

// Without colour (NO_COLOR) a textarea's cursor is a bar, as in the
// one-line fields: reverse video draws nothing there, and the user saw
// no cursor at all. It shows only while the textarea and the form have
// the focus, and a full line stays inside the form's width.
func TestTextareaCursorWithoutColour(t *testing.T) {
	def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}, {Name: "b", Type: Text, Label: "Other"}}}
	l := Build(def, nil, nil, nil, BuildOptions{Width: 44})
	pump(l.Form(), l.Form().Init())
	pumpLive(l, []tea.Cmd{l.Update(typed("hello world"))})
	if v := l.View(); !strings.Contains(v, "┃ hello world|") {
		t.Fatalf("no cursor after the text:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyLeft)), l.Update(press(tea.KeyLeft))})
	if v := l.View(); !strings.Contains(v, "┃ hello wor|ld") {
		t.Fatalf("no cursor before the l:\n%s", v)
	}
	l.SetFocused(false)
	if v := l.View(); strings.Contains(v, "|") {
		t.Fatalf("an unfocused form draws the cursor:\n%s", v)
	}
	l.SetFocused(true)
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
	if v := l.View(); strings.Count(v, "|") != 1 || !strings.Contains(v, "> |") {
		t.Fatalf("the cursor is not on the next field alone:\n%s", v)
	}
}

func TestTextareaCursorInAFullLine(t *testing.T) {
	for _, w := range []int{44, 60, 94} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}}}
			l := Build(def, nil, nil, Values{"a": strings.Repeat("y", 3*w)}, BuildOptions{Width: w})
			pump(l.Form(), l.Form().Init())
			pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyUp)), l.Update(press(tea.KeyLeft))})
			v := l.View()
			if strings.Count(v, "|") != 1 {
				t.Fatalf("not one cursor:\n%s", v)
			}
			for _, line := range strings.Split(v, "\n") {
				if got := lipgloss.Width(line); got > w {
					t.Fatalf("a line of %d cells in %d:\n%s", got, w, v)
				}
			}
		})
	}
}

// The bar does not blink: a blink would shift the text after it.
func TestTextareaCursorWithoutColourIsSteady(t *testing.T) {
	def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}}}
	l := Build(def, nil, nil, Values{"a": "hello"}, BuildOptions{Width: 44})
	pump(l.Form(), l.Form().Init())
	a := l.slots[0].field.(*paged).Field.(*sizedArea)
	a.Blur()
	blink := blinkOf(t, a.Focus()) // the cursor's blink, half a second on
	l.Update(blink)
	if v := l.View(); !strings.Contains(v, "┃ hello|") {
		t.Fatalf("the cursor blinked off:\n%s", v)
	}
}

// blinkOf runs c, a blink timer among others, and returns its message.
func blinkOf(t *testing.T, c tea.Cmd) cursor.BlinkMsg {
	t.Helper()
	if c == nil {
		t.Fatal("no blink")
	}
	switch m := c().(type) {
	case cursor.BlinkMsg:
		return m
	case tea.BatchMsg:
		for _, c := range m {
			if c != nil && cmdtest.IsTimer(c) {
				return blinkOf(t, c)
			}
		}
	}
	t.Fatal("no blink")
	return cursor.BlinkMsg{}
}

// With colour, a textarea in a form without the screen's focus draws no
// cursor either (it kept its reverse-video cell while the composer had
// the focus), and comes back with it.
func TestUnfocusedFormDrawsNoTextareaCursor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	def := Definition{Title: "Plan the trip", Fields: []Field{{Name: "a", Type: Textarea, Label: "Notes"}, {Name: "b", Type: Text}}}
	l := start(def, nil, nil, Values{"a": "hello"})
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyLeft))})
	if v := l.View(); !strings.Contains(v, "\x1b[7") {
		t.Fatalf("no reverse-video cursor: %q", v)
	}
	l.SetFocused(false)
	v := l.View()
	if strings.Contains(v, "\x1b[7") || strings.Contains(v, "\x1b_") || !strings.Contains(ansi.Strip(v), "hello") {
		t.Fatalf("an unfocused form draws the textarea's cursor: %q", v)
	}
	l.SetFocused(true)
	if v := l.View(); !strings.Contains(v, "\x1b[7") {
		t.Fatalf("the cursor did not come back: %q", v)
	}
}
