package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A pasted paragraph, through the program's input filter, keeps its line breaks in the composer, whether the
// terminal sent them as CR (as tmux and most terminals do), CR LF or LF.
func TestAPasteKeepsItsLineBreaks(t *testing.T) {
	for name, text := range map[string]string{"cr": "first\rsecond\rthird", "crlf": "first\r\nsecond\r\nthird", "lf": "first\nsecond\nthird"} {
		t.Run(name, func(t *testing.T) {
			k := newKit(t)
			k.m.Update(pasteLines(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true}))
			if got := k.m.composer.Value(); got != "first\nsecond\nthird" {
				t.Fatalf("the composer holds %q, want the three lines", got)
			}
		})
	}
}
