package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// A long value typed into a single-line field scrolls inside its own
// line in the pane, at every width the screen allows, focused, left, and
// with the focus on the composer:
// the form is built as wide as the pane's inside. (At 100 columns a form
// two cells wider than the pane had its input line wrapped by the pane's
// frame from about 90 characters on: "┃ >" alone, the text on a line of
// its own without the focus bar.)
func TestLongValueKeepsItsLineInThePane(t *testing.T) {
	t.Parallel()
	values := map[string]string{
		"ascii": strings.Repeat("abcdefghij", 25),
		"cjk":   strings.Repeat("日本語のテキスト", 16),
		"emoji": strings.Repeat("👋🎉", 60),
	}
	for _, size := range [][2]int{{50, 15}, {60, 20}, {73, 24}, {100, 30}, {137, 40}, {200, 50}} {
		for name, value := range values {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], name), func(t *testing.T) {
				t.Parallel()
				k := newKit(t)
				m := k.m
				sent := k.ask("Plan a trip")
				k.load(sent.ChatID)
				m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				m.setFocus(focusForm)
				for _, field := range []string{"destination", "start"} {
					m.pane.live.Edit(field)
					m.updateForm(tea.KeyMsg{Type: tea.KeyCtrlU}) // the suggestion goes
					m.updateForm(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(value)})
					valueOnItsLine(t, frameOf(m), size[0], value, field+" focused")
				}
				m.pane.live.Edit("destination") // start left
				valueOnItsLine(t, frameOf(m), size[0], value, "start left")
				m.setFocus(focusComposer)
				valueOnItsLine(t, frameOf(m), size[0], value, "the composer focused")
			})
		}
	}
}

// valueOnItsLine fails unless every line of frame fits width, and every
// line showing a part of value shows it after a prompt, on the line of a
// field's input.
func valueOnItsLine(t *testing.T, frame string, width int, value, when string) {
	t.Helper()
	shown := false
	for _, line := range strings.Split(frame, "\n") {
		if w := lipgloss.Width(line); w > width {
			t.Fatalf("%s: a line of %d cells on a screen %d wide:\n%s", when, w, width, frame)
		}
		line = ansi.Strip(line)
		at := partOf(line, value)
		if at < 0 {
			continue
		}
		if !strings.Contains(line[:at], "> ") {
			t.Fatalf("%s: the value is drawn on a line without its prompt:\n%s", when, frame)
		}
		shown = true
	}
	if !shown {
		t.Fatalf("%s: the value is not drawn:\n%s", when, frame)
	}
}

// partOf is the byte offset in line of the first run of eight grapheme
// clusters that value holds, or -1.
func partOf(line, value string) int {
	const run = 8
	g := uniseg.NewGraphemes(line)
	var starts []int
	for g.Next() {
		from, _ := g.Positions()
		starts = append(starts, from)
	}
	starts = append(starts, len(line))
	for i := 0; i+run < len(starts); i++ {
		if strings.Contains(value, line[starts[i]:starts[i+run]]) {
			return starts[i]
		}
	}
	return -1
}
