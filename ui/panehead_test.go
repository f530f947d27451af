package ui

import (
	"strings"
	"testing"

	"followup/ui/dialog"

	tea "github.com/charmbracelet/bubbletea"
)

// paneText is the text inside the pane's frame, its lines joined by a
// space: what a reader of the pane reads.
func paneText(frame string) string {
	var words []string
	for _, line := range strings.Split(frame, "\n") {
		if i, j := strings.Index(line, "│"), strings.LastIndex(line, "│"); i >= 0 && j > i {
			words = append(words, strings.Fields(line[i+len("│"):j])...)
		}
	}
	return strings.Join(words, " ")
}

// At 60×20 a question's reason is wrapped to the pane's width, whole, and
// the hint under the form stays; one too long for a few lines is cut with
// an ellipsis on its last, and the frame never outgrows the screen.
func TestReasonWrapsInThePane(t *testing.T) {
	t.Parallel()
	const why = "The release window closes at noon and the on-call engineer must know which environment to watch before the deploy starts"
	for _, tc := range []struct {
		name, reason string
		whole        bool
	}{
		{"fits", why, true},
		{"too long", strings.Repeat(why+". ", 4), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			k := newKit(t, withClock)
			k.load(k.openAsked("release", "Pick an environment", tc.reason))
			k.m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
			k.m.setFocus(focusForm)
			v := frameOf(k.m)
			if n := strings.Count(v, "\n") + 1; n > 20 {
				t.Fatalf("a frame of %d lines on a 20-line screen:\n%s", n, v)
			}
			text := paneText(v)
			if tc.whole && !strings.Contains(text, why) {
				t.Errorf("the pane does not show the whole reason:\n%s", v)
			}
			if !tc.whole && (!strings.Contains(text, why[:100]) || !strings.Contains(text, "…")) {
				t.Errorf("a long reason is not shown over a few lines and cut with an ellipsis:\n%s", v)
			}
			if !containsAll(v, "Pick an environment", "esc leave") {
				t.Errorf("the form's title or hint is gone:\n%s", v)
			}
		})
	}
}

// A reason the pane cuts says which key reads it in full, and that key
// shows all of it on a page of its own; esc comes back to the form.
func TestCutReasonReadsInFull(t *testing.T) {
	t.Parallel()
	const why = "The release window closes at noon and the on-call engineer must know which environment to watch before the deploy starts. "
	k := newKit(t, withClock)
	k.load(k.openAsked("release", "Pick an environment", strings.Repeat(why, 4)+"The last word is zebra."))
	k.m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	k.m.setFocus(focusForm)
	if v := frameOf(k.m); !strings.Contains(paneText(v), "f3 reads it all") || strings.Contains(v, "zebra") {
		t.Fatalf("the cut reason does not say how to read it all:\n%s", v)
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyF3})
	v := frameOf(k.m)
	if !showing[dialog.Page](k.m) || !strings.Contains(v, "Pick an environment") {
		t.Fatalf("f3 did not open the whole reason:\n%s", v)
	}
	for i := 0; !strings.Contains(v, "zebra") && i < 10; i++ {
		k.m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
		v = frameOf(k.m)
	}
	if got := strings.Join(strings.Fields(v), " "); !strings.Contains(got, strings.TrimSpace(why)) || !strings.Contains(got, "zebra") {
		t.Fatalf("the page does not hold the whole reason:\n%s", v)
	}
	k.m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v := frameOf(k.m); showing[dialog.Page](k.m) || !strings.Contains(v, "Pick an environment") || k.m.focus != focusForm {
		t.Fatalf("esc did not come back to the form (focus %v):\n%s", k.m.focus, v)
	}
}
