package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"followup/forms"
)

// Without colour (the tests' ASCII profile is what NO_COLOR gives) the
// focus still shows: the composer with the focus draws a bar where its
// cursor is, in place of a padding space so the line keeps its width,
// and none once the form has the focus; the shown tab is bracketed.
func TestNoColourShowsFocus(t *testing.T) {
	t.Parallel()
	if !forms.Colourless() {
		t.Fatal("the tests draw without colour")
	}
	k := newKit(t)
	sent := k.ask("Check deployment")
	k.say(sent.ChatID, "and plan a trip")
	k.load(sent.ChatID)
	k.m.setFocus(focusComposer)
	k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("abc def")})
	k.m.Update(tea.KeyMsg{Type: tea.KeyLeft})
	k.m.Update(tea.KeyMsg{Type: tea.KeyLeft})
	v := frameOf(k.m)
	if line := composerLine(k.m); !strings.Contains(line, "› abc d|ef") || lipgloss.Width(line) != k.m.width {
		t.Fatalf("the composer's cursor is not drawn, or the line is %d wide on a %d-wide screen: %q",
			lipgloss.Width(line), k.m.width, line)
	}
	tabs := lineWith(v, "1 ")
	if !strings.Contains(tabs, "[2 Plan the trip]") || strings.Contains(tabs, "[1") {
		t.Fatalf("the shown tab is not bracketed: %q", tabs)
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlP})
	if tabs := lineWith(frameOf(k.m), "1 "); !strings.Contains(tabs, "[1 Choose an environment]") || strings.Contains(tabs, "[2") {
		t.Fatalf("the bracket did not follow the tab shown: %q", tabs)
	}
	k.m.setFocus(focusForm)
	if line := composerLine(k.m); strings.Contains(line, "|") {
		t.Fatalf("the composer draws a cursor without the focus: %q", line)
	}
}
