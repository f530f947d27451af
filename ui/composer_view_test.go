package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// composerRows is the composer's rows as drawn on the screen.
func composerRows(m *model) []string {
	m.arrange()
	return strings.Split(m.composer.View(), "\n")
}

// numbered is lines "Line 1" to "Line n".
func numbered(n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("Line %d", i+1)
	}
	return strings.Join(lines, "\n")
}

// The composer's view always holds the cursor and never leaves a blank
// row while text is hidden: after a paste the pasted end is in view,
// after lines deleted from the end the rows above come down, and after a
// resize the rows that now fit show from the first.
func TestComposerShowsTheCursorAndNoBlankRows(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load("")
	k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(numbered(40)), Paste: true})
	rows := composerRows(k.m)
	if h := k.m.composer.Height(); len(rows) != h || !strings.Contains(rows[h-1], "Line 40") ||
		!strings.Contains(rows[0], fmt.Sprintf("Line %d", 40-h+1)) {
		t.Fatalf("after the paste the composer shows:\n%s", strings.Join(rows, "\n"))
	}

	for range len(numbered(40)) - len(numbered(28)) {
		k.m.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	rows = composerRows(k.m)
	for i, r := range rows {
		if want := fmt.Sprintf("Line %d", 28-len(rows)+1+i); !strings.Contains(r, want) {
			t.Fatalf("row %d is not %q after deleting lines:\n%s", i, want, strings.Join(rows, "\n"))
		}
	}

	k.m.composer.Reset()
	k.m.Update(tea.WindowSizeMsg{Width: 50, Height: 15})
	for i := 1; i <= 80; i++ {
		k.m.Update(typed(fmt.Sprintf("w%d ", i)))
	}
	k.m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	rows = composerRows(k.m)
	if !strings.HasPrefix(rows[0], "› w1 w2") || !strings.Contains(strings.Join(rows, "\n"), "w80") {
		t.Fatalf("after the resize the composer shows:\n%s", strings.Join(rows, "\n"))
	}
	for i, r := range rows {
		if strings.TrimSpace(r) == "" && i < k.m.composer.Rows() {
			t.Fatalf("row %d is blank while text is hidden:\n%s", i, strings.Join(rows, "\n"))
		}
	}
}
