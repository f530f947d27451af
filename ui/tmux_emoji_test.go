package ui

import (
	"path/filepath"
	"strings"
	"testing"
)

// Emoji typed in the composer of a real terminal (tmux draws 👋🏽 four
// cells wide, lipgloss measures two): the frame stays whole — one composer
// line, the status line at the bottom — and backspace takes a whole
// cluster, 👨‍👩‍👧 included.
func TestTerminalEmojiInTheComposer(t *testing.T) {
	t.Parallel()
	tm := startApp(t, filepath.Join(t.TempDir(), "f.db"), 60, 20)
	tm.WaitFor("Type a message to start")
	tm.Type("a👋🏽b")
	tm.WaitFor("› a👋b")
	tm.Keys("BSpace", "BSpace")
	s := tm.WaitGone("👋")
	if got := strings.TrimSpace(lineWith(s, "› ")); got != "› a" {
		t.Fatalf("two backspaces left %q:\n%s", got, s)
	}
	wholeFrame(t, s)
	tm.Type("x👨\u200d👩\u200d👧")
	tm.WaitFor("x👨")
	tm.Keys("BSpace")
	s = tm.WaitGone("👨", "👩", "👧")
	if !strings.Contains(s, "› ax") {
		t.Fatalf("backspace took more than the family:\n%s", s)
	}
	wholeFrame(t, s)
}

// wholeFrame fails unless the screen has one composer line and ends with
// the status line.
func wholeFrame(t *testing.T, s string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "› ") {
			n++
		}
	}
	if n != 1 || !strings.Contains(lines[len(lines)-1], "offline ·") {
		t.Fatalf("%d composer lines, or the status line is not last:\n%s", n, s)
	}
}
