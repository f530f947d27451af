package status

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"followup/chat"
	"followup/ui/style"
)

// A notice that fits is one line, its code after it; a longer one wraps
// at word boundaries onto at most MostLines lines, none wider than the
// screen, the last cut with an ellipsis; the code goes on the last line
// when it has room.
func TestLinesWrapsAndKeepsTheCode(t *testing.T) {
	if got := ansi.Strip(Lines("Answer sent.", "", style.Dim, 40)); got != "Answer sent." {
		t.Fatalf("a short notice drawn %q", got)
	}
	words := "The server weather could not be started: its command exited before it answered."
	v := Lines(words, "MCP_FAILED", style.Error, 40)
	lines := strings.Split(ansi.Strip(v), "\n")
	if len(lines) < 2 || len(lines) > MostLines || strings.Join(strings.Fields(ansi.Strip(v)), " ") != words+" MCP_FAILED" {
		t.Fatalf("wrapped to %d lines:\n%s", len(lines), ansi.Strip(v))
	}
	for _, l := range lines {
		if lipgloss.Width(l) > 40 {
			t.Fatalf("a line of %d cells on a screen of 40: %q", lipgloss.Width(l), l)
		}
	}
	long := ansi.Strip(Lines(strings.Repeat("word ", 60), "", style.Dim, 40))
	if n := strings.Count(long, "\n") + 1; n != MostLines || !strings.HasSuffix(long, "…") {
		t.Fatalf("a notice longer than %d lines drawn in %d:\n%s", MostLines, n, long)
	}
}

// A notice's moment: SayDone's notice ends when a question that was not
// open appears; another ends when the chat's moment moves on, and Ended
// asks for the end of a notice that is no error only.
func TestNoticeMoments(t *testing.T) {
	var n Notice
	n.SayDone("Answer sent.", 1, []string{"r1"})
	n.Moves(2, "run:running|r1", []string{"r1"})
	if n.Text() == "" {
		t.Fatal("the notice ended while its moment held")
	}
	n.Moves(3, "run:running|r1|r2", []string{"r1", "r2"})
	if n.Text() != "" {
		t.Fatal("a new question did not end the notice")
	}
	gen := n.Gen()
	n.Set("Saved.", false, 3)
	if n.Ended(gen) == nil || n.Ended(n.Gen()) != nil {
		t.Fatal("a new notice that is no error must end by itself, once")
	}
	gen = n.Gen()
	n.SetErr("Nothing was sent: ", &chat.Error{Code: chat.CodeInvalidArgument, Message: "the value is too long"}, 3)
	if n.Text() != "Nothing was sent: the value is too long." || !n.IsErr() || n.Ended(gen) != nil {
		t.Fatalf("an error notice: %q (error %v)", n.Text(), n.IsErr())
	}
	if w, code := ErrWords("", errors.New("boom")); w != "Boom." || code != "" {
		t.Fatalf("an internal error: %q %q", w, code)
	}
}
