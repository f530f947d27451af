package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// composerLine is the frame's line holding the composer's prompt.
func composerLine(m *model) string { return lineWith(frameOf(m), "› ") }

// Emoji in the composer: the text as typed is what is sent, the line is
// drawn without the skin tone (as wide as lipgloss measures it, which is
// what the terminal draws), and backspace and delete take a whole
// grapheme cluster.
func TestComposerEditsWholeClusters(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load("")
	typeText := func(s string) { k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	keys := func(ts ...tea.KeyType) {
		for _, t := range ts {
			k.m.Update(tea.KeyMsg{Type: t})
		}
	}
	typeText("a👋🏽b")
	if got := k.m.composer.Value(); got != "a👋🏽b" {
		t.Fatalf("the composer holds %q", got)
	}
	if line := composerLine(k.m); !strings.Contains(line, "› a👋b") || strings.ContainsRune(line, '\U0001F3FD') {
		t.Fatalf("the composer draws %q", line)
	}
	keys(tea.KeyBackspace, tea.KeyBackspace)
	if got := k.m.composer.Value(); got != "a" {
		t.Fatalf("two backspaces left %q, want a", got)
	}

	family := "👨\u200d👩\u200d👧"
	k.m.composer.Reset()
	typeText("x" + family + "y")
	keys(tea.KeyLeft, tea.KeyBackspace)
	if got := k.m.composer.Value(); got != "xy" {
		t.Fatalf("backspace after the family left %q, want xy", got)
	}
	k.m.composer.Reset()
	typeText("x" + family + "y")
	keys(tea.KeyHome, tea.KeyRight, tea.KeyDelete)
	if got := k.m.composer.Value(); got != "xy" {
		t.Fatalf("delete before the family left %q, want xy", got)
	}

	// The cursor steps over a cluster whole: typing after one ← lands
	// before the family, not inside it.
	k.m.composer.Reset()
	typeText(family + "👋🏽")
	keys(tea.KeyLeft, tea.KeyLeft)
	typeText("z")
	if got := k.m.composer.Value(); got != "z"+family+"👋🏽" {
		t.Fatalf("typed after two ← gives %q", got)
	}
	k.m.composer.SetValue("❤️ ok")
	if got, line := k.m.composer.Value(), composerLine(k.m); got != "❤️ ok" || lipgloss.Width(line) != k.m.width {
		t.Fatalf("a set value %q drawn %q, %d wide on a %d-wide screen", got, line, lipgloss.Width(line), k.m.width)
	}
}
