package ui

import (
	"context"
	"testing"

	"followup/ui/dialog"

	tea "github.com/charmbracelet/bubbletea"
)

// While the screen says only that the terminal is too small, keys other
// than quit do nothing: no text into the form or the composer, no review,
// no send. What was typed before stays, and the form is still waiting
// when the terminal is large again. The small screen still says that a
// question waits.
func TestKeysDoNothingWhileTheTerminalIsTooSmall(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	sent := k.ask("hello")
	k.load(sent.ChatID)
	k.clock.advance(focusPause)
	k.tick()
	if k.m.focus != focusForm || k.m.pane.live == nil {
		t.Fatalf("focus %v, form %v", k.m.focus, k.m.pane.live != nil)
	}
	k.press(typed("kept"))
	before := k.m.pane.live.RawText()

	k.m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	if v := frameOf(k.m); !containsAll(v, "1 question waits for your answer.", "The terminal is 40×12") {
		t.Fatalf("not the too-small screen:\n%s", v)
	}
	k.press(typed(" typed while small"), tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyEnter},
		tea.KeyMsg{Type: tea.KeyEsc}, tea.KeyMsg{Type: tea.KeyCtrlF}, typed("x"), tea.KeyMsg{Type: tea.KeyEnter})
	k.m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})

	if got := k.m.pane.live.RawText(); len(got) != len(before) || !sameText(got, before) {
		t.Fatalf("the form's text changed while too small: %v, was %v", got, before)
	}
	if k.m.composer.Value() != "" {
		t.Fatalf("composer %q", k.m.composer.Value())
	}
	if showing[dialog.Review](k.m) {
		t.Fatal("the review opened while the terminal was too small")
	}
	rs, err := k.svc.Pending(context.Background(), sent.ChatID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("pending %d, %v: the question was answered blind", len(rs), err)
	}
	if k.m.focus != focusForm {
		t.Fatalf("focus %v", k.m.focus)
	}
}

func sameText(a, b map[string]string) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// An archived chat's questions wait for nobody until it is unarchived (its
// row in the chat list counts none): the too-small screen does not say they
// wait for an answer.
func TestTooSmallCountsNoQuestionOfAnArchivedChat(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	sent := k.ask("hello")
	if _, err := k.svc.Archive(context.Background(), sent.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	k.m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	if v := frameOf(k.m); !containsAll(v, "The terminal is 40×12") || containsAll(v, "for your answer") {
		t.Fatalf("the too-small screen of an archived chat:\n%s", v)
	}
}
