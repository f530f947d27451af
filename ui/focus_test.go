package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// press gives the screen a key and then what its commands bring back at
// once (the focus check after a pause is run by tick).
func (k *kit) press(msgs ...tea.KeyMsg) {
	for _, msg := range msgs {
		k.m.Update(msg)
	}
}

// tick runs the focus check the screen has on its way, as if its time had
// come.
func (k *kit) tick() { k.m.Update(focusTickMsg{seq: k.m.moves.seq}) }

func typed(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// A question that appears while the composer holds text waits for the
// focus: the pause alone does not move it, and the text stays where it
// was typed. Once the composer is empty and the user pauses, it moves.
func TestANewFormWaitsWhileTheComposerHoldsText(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	k.press(typed("and also"))
	k.load(k.ask("Check deployment").ChatID)
	if !k.m.moves.waiting || k.m.pane.live == nil {
		t.Fatalf("waiting %v, form %v", k.m.moves.waiting, k.m.pane.live != nil)
	}
	k.clock.advance(focusPause)
	k.tick()
	if k.m.focus != focusComposer {
		t.Fatal("the focus left a composer holding text")
	}
	k.press(typed(" more"))
	if got := k.m.composer.Value(); got != "and also more" {
		t.Fatalf("composer %q", got)
	}
	if v := frameOf(k.m); !containsAll(v, "ctrl+f to answer", "› and also more") {
		t.Fatalf("the waiting form has no ctrl+f hint:\n%s", v)
	}
	// The message sent, the composer empty, a pause: now it moves.
	for range len("and also more") {
		k.press(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	k.clock.advance(focusPause / 2)
	k.tick()
	if k.m.focus != focusComposer {
		t.Fatal("the focus moved before the user paused")
	}
	k.clock.advance(focusPause)
	k.tick()
	if k.m.focus != focusForm {
		t.Fatalf("focus %v after a pause with the composer empty", k.m.focus)
	}
}

// A proposal's decision keys act only once it has the focus: typed while
// the composer has it, they are text; a key an instant after the focus
// moved by itself goes back to the composer too.
func TestProposalKeysActOnlyWithTheFocus(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	sent := k.ask("Check deployment")
	k.say(sent.ChatID, "use staging")
	k.load(sent.ChatID)
	if !showing[dialog.Proposal](k.m) || k.m.focus != focusComposer {
		t.Fatalf("proposal %v, focus %v", showing[dialog.Proposal](k.m), k.m.focus)
	}
	k.press(typed("a"))
	if k.m.composer.Value() != "a" {
		t.Fatalf("composer %q: a decided the proposal", k.m.composer.Value())
	}
	k.press(tea.KeyMsg{Type: tea.KeyBackspace})
	k.clock.advance(focusPause)
	k.tick()
	if k.m.focus != focusDialog {
		t.Fatalf("focus %v after a pause", k.m.focus)
	}
	k.press(typed("k")) // within the grace: meant for the composer
	if k.m.focus != focusComposer || k.m.composer.Value() != "k" {
		t.Fatalf("focus %v, composer %q", k.m.focus, k.m.composer.Value())
	}
	k.press(tea.KeyMsg{Type: tea.KeyBackspace})
	k.clock.advance(focusPause)
	k.tick()
	k.clock.advance(dialogGrace)
	_, cmd := k.m.Update(typed("k"))
	var decided bool
	for _, msg := range cmdtest.Run(cmd) {
		if d, ok := msg.(decidedMsg); ok {
			decided = d.err == nil && d.res.State == "rejected"
		}
	}
	if !decided {
		t.Fatal("k with the focus on the proposal did not keep the user's values")
	}
}

// ctrl+x and ctrl+s work on the review: their confirmation opens over it,
// and saying no comes back to it.
func TestCancelAndStopFromTheReview(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load(k.ask("Check deployment").ChatID)
	k.m.setFocus(focusForm)
	k.m.openReview()
	for _, c := range []struct {
		key   tea.KeyType
		title string
	}{{tea.KeyCtrlX, "Cancel this question?"}, {tea.KeyCtrlS, "Stop the whole task?"}} {
		k.press(tea.KeyMsg{Type: c.key})
		if v := frameOf(k.m); !containsAll(v, c.title) {
			t.Fatalf("%v on the review:\n%s", c.key, v)
		}
		k.press(typed("n"))
		if !showing[dialog.Review](k.m) || k.m.focus != focusDialog {
			t.Fatalf("after n: back on the review %v, focus %v", showing[dialog.Review](k.m), k.m.focus)
		}
	}
}

// A question that appears in the chat on screen before any key was typed
// does not take the focus at once: keys may still be on their way. It
// waits for a pause like any newcomer. (A question already there when its
// chat opens is no newcomer: TestKeysBeforeTheDatabaseOpens,
// TestAQuestionInAChatSwitchedToHasTheFocus.)
func TestAQuestionArrivingBeforeAnyKeyWaitsForAPause(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	k.load(k.ask("Check deployment").ChatID)
	k.tick()
	if k.m.focus != focusComposer {
		t.Fatal("the form took the focus before the user could have paused")
	}
	k.press(typed("typing"))
	k.clock.advance(focusPause)
	k.tick()
	if k.m.focus != focusComposer || k.m.composer.Value() != "typing" {
		t.Fatalf("focus %v, composer %q: the keys typed as the question appeared left the composer", k.m.focus, k.m.composer.Value())
	}
}

// Accepting a proposal puts the focus in the form it fills — unless the
// user typed in the composer before that form was on screen: those keys
// stay there, and the form waits for the focus by the rule.
func TestKeysTypedBeforeTheAcceptedFormStayInTheComposer(t *testing.T) {
	t.Parallel()
	for _, typing := range []bool{false, true} {
		k := newKit(t)
		k.clock.stop()
		sent := k.ask("Check deployment")
		k.say(sent.ChatID, "use staging")
		k.load(sent.ChatID)
		k.clock.advance(focusPause)
		k.tick()
		k.clock.advance(dialogGrace)
		if k.m.focus != focusDialog {
			t.Fatalf("focus %v: the proposal did not take it", k.m.focus)
		}
		_, cmd := k.m.Update(typed("a"))
		var reload tea.Cmd
		for _, msg := range cmdtest.Run(cmd) {
			if d, ok := msg.(decidedMsg); ok {
				reload = k.m.update(d)
			}
		}
		if reload == nil {
			t.Fatal("a did not accept the proposal")
		}
		if typing { // the form is not on screen yet: the keys are the composer's
			k.clock.advance(time.Millisecond)
			k.press(typed("typing"))
		}
		deliver(k.m, reload)
		switch {
		case k.m.pane.live == nil:
			t.Fatal("the accepted proposal's form is not on screen")
		case !typing && k.m.focus != focusForm:
			t.Fatalf("focus %v after accepting, want the form", k.m.focus)
		case typing && (k.m.focus != focusComposer || k.m.composer.Value() != "typing" || !k.m.moves.waiting):
			t.Fatalf("focus %v, composer %q, waiting %v: the form took the focus from the composer's keys",
				k.m.focus, k.m.composer.Value(), k.m.moves.waiting)
		}
	}
}

// An answer refused after the user went on to type in the composer leaves
// the focus there; the form waits for it by the rule.
func TestARefusedAnswerDoesNotTakeTheComposersKeys(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	r := tripOnScreen(t, k)
	k.m.openReview()
	k.press(tea.KeyMsg{Type: tea.KeyCtrlF}, typed("typing")) // while the answer is on its way
	if k.m.focus != focusComposer {
		t.Fatalf("focus %v after ctrl+f from the review", k.m.focus)
	}
	deliver(k.m, k.m.update(answeredMsg{err: &chat.Error{Code: chat.CodeStaleTarget, Message: "revised"}, sent: closedQuestion{was: r}}))
	if k.m.focus != focusComposer || k.m.composer.Value() != "typing" || !k.m.moves.waiting {
		t.Fatalf("focus %v, composer %q, waiting %v: the refused answer took the focus from the composer",
			k.m.focus, k.m.composer.Value(), k.m.moves.waiting)
	}
}

// The review's hint says what enter will do: with required fields still
// missing it saves a partial answer, it does not send one.
func TestReviewHintSaysAPartialAnswerIsSaved(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load(k.ask("Plan a trip").ChatID)
	k.m.setFocus(focusForm)
	k.m.openReview()
	if v := frameOf(k.m); !containsAll(v, "enter save partial answer", "Still missing") || strings.Contains(v, "send answer") {
		t.Fatalf("the review of a form with fields missing:\n%s", v)
	}
}

// A question waiting in a chat the user switches to has the focus from the
// first frame that shows its form, with no pause: the pause is for a
// newcomer that interrupts typing.
func TestAQuestionInAChatSwitchedToHasTheFocus(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	trip := k.ask("Plan a trip")
	deploy := k.ask("Check deployment")
	k.load(deploy.ChatID)
	k.m.setFocus(focusComposer)
	deliver(k.m, k.m.switchChat(trip.ChatID))
	deliver(k.m, k.m.load(trip.ChatID))
	if k.m.focus != focusForm {
		t.Fatalf("focus %v on the trip's form, want the form's from its first frame:\n%s", k.m.focus, frameOf(k.m))
	}
	deliver(k.m, typeInto(k.m, "Oslo"))
	if !strings.Contains(frameOf(k.m), "> Oslo") || k.m.composer.Value() != "" {
		t.Fatalf("the keys did not reach the form:\n%s", frameOf(k.m))
	}
}

// After the user answers or cancels one of two questions in the pane, the
// other one's form has the focus: the user was answering, not typing to
// the agent.
func TestTheNextQuestionTakesTheFocusAfterOneIsDecided(t *testing.T) {
	t.Parallel()
	for _, decide := range [][]tea.KeyMsg{
		{{Type: tea.KeyEnter}, {Type: tea.KeyEnter}},                     // the review, then send
		{{Type: tea.KeyCtrlX}, {Type: tea.KeyRunes, Runes: []rune("y")}}, // cancel this question, yes
	} {
		k := newKit(t)
		k.clock.stop()
		c := k.ask("Check deployment")
		k.say(c.ChatID, "and plan a trip")
		k.load(c.ChatID)
		if n := len(k.m.pane.pending); n != 2 {
			t.Fatalf("%d questions pending, want 2", n)
		}
		k.m.setFocus(focusForm)
		_, cmd := k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlP}) // to the deployment's question
		deliver(k.m, cmd)
		first, _ := k.m.pane.activeRequest()
		if first.Title != "Choose an environment" {
			t.Fatalf("showing %q", first.Title)
		}
		for _, key := range decide {
			_, cmd := k.m.Update(key)
			deliver(k.m, cmd)
		}
		next, ok := k.m.pane.activeRequest()
		if !ok || next.ID == first.ID || k.m.focus != focusForm {
			t.Fatalf("after %v: showing %q (was %q), focus %v:\n%s", decide, next.Title, first.Title, k.m.focus, frameOf(k.m))
		}
		k.clock.advance(burstGap) // a pause: the decision's burst of keys is over
		deliver(k.m, typeInto(k.m, "Oslo"))
		if !strings.Contains(frameOf(k.m), "Oslo") || k.m.composer.Value() != "" {
			t.Fatalf("the keys did not reach the next form:\n%s", frameOf(k.m))
		}
	}
}

// Letters typed at a field that takes no text (the deployment's choice of
// environment) are not lost without a word: the notice line says where
// typing goes. Typed in a text field they are the field's, and nothing
// is said.
func TestTextTypedAtAChoiceSaysWhereTypingGoes(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load(k.ask("Check deployment").ChatID)
	k.m.setFocus(focusForm)
	deliver(k.m, typeInto(k.m, "u"))
	if v := frameOf(k.m); !strings.Contains(v, "Keys go to the form; ctrl+f types in the composer.") {
		t.Fatalf("a letter at the choice said nothing:\n%s", v)
	}
	k2 := newKit(t)
	k2.load(k2.ask("Plan a trip").ChatID)
	k2.m.setFocus(focusForm)
	deliver(k2.m, typeInto(k2.m, "Oslo"))
	if v := frameOf(k2.m); strings.Contains(v, "Keys go to the form") || !strings.Contains(v, "Oslo") {
		t.Fatalf("typing in a text field:\n%s", v)
	}
}
