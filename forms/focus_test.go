package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
)

var focusDef = Definition{Title: "Deploy", Fields: []Field{
	{Name: "version", Type: Text, Label: "Version", Required: true},
	{Name: "dry", Type: Boolean, Label: "Dry run"},
	{Name: "env", Type: Select, Label: "Environment", Options: []Option{{Value: "production"}, {Value: "staging"}}},
}}

// Without colour (the ASCII profile: NO_COLOR) the focused field, the
// cursor and a yes/no choice still show, and a form without the screen's
// focus shows none of them.
func TestGoldenFocusWithoutColour(t *testing.T) {
	l := start(focusDef, nil, nil, Values{"version": "1.2.3", "dry": true})
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyLeft))})
	focused := l.View()
	if !strings.Contains(focused, "┃ > 1.2.|3") {
		t.Fatalf("no cursor or focus border:\n%s", focused)
	}
	t.Run("ascii_focused", func(t *testing.T) { golden.RequireEqual(t, []byte(focused)) })
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
	if v := l.View(); !strings.Contains(v, "┃ [ Yes ]   No") {
		t.Fatalf("the choice is not marked:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyShiftTab))})
	l.SetFocused(false)
	unfocused := l.View()
	if strings.Contains(unfocused, "┃") || strings.Contains(unfocused, "|") {
		t.Fatalf("an unfocused form shows a focused field:\n%s", unfocused)
	}
	t.Run("ascii_unfocused", func(t *testing.T) { golden.RequireEqual(t, []byte(unfocused)) })
	l.SetFocused(true)
	if v := l.View(); v != focused {
		t.Fatalf("focus did not come back:\n%s", v)
	}
}

// With colour the cursor is reverse video, and an unfocused form has none.
func TestUnfocusedFormDrawsNoCursor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	l := start(focusDef, nil, Values{"version": "1.2.3"}, nil)
	if v := l.View(); !strings.Contains(v, "\x1b[7") {
		t.Fatalf("no reverse-video cursor: %q", v)
	}
	l.SetFocused(false)
	if v := l.View(); strings.Contains(v, "\x1b[7") || strings.Contains(v, "┃") {
		t.Fatalf("an unfocused form draws a cursor or focus border: %q", v)
	}
}
