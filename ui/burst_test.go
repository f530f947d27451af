package ui

import (
	"testing"
	"time"

	"followup/ui/dialog"
)

// "a" accepts the proposal that has the focus; a "k" typed 100 ms later,
// in the same burst, is dropped — it does not move the select of the form
// that took the card's place. After a pause, keys act on the form again.
func TestKeysInTheBurstOfADecisionAreDropped(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	sent := k.ask("Check deployment")
	k.say(sent.ChatID, "use production")
	k.load(sent.ChatID)
	k.clock.advance(focusPause)
	k.tick()
	if !showing[dialog.Proposal](k.m) || k.m.focus != focusDialog {
		t.Fatalf("proposal %v, focus %v", showing[dialog.Proposal](k.m), k.m.focus)
	}
	k.clock.advance(dialogGrace)
	_, cmd := k.m.Update(typed("a"))
	deliver(k.m, cmd)
	if k.pendingProposals() != 0 || k.m.pane.live == nil || k.m.focus != focusForm {
		t.Fatalf("after a: %d proposals, form %v, focus %v", k.pendingProposals(), k.m.pane.live != nil, k.m.focus)
	}
	k.load(sent.ChatID)
	if k.m.notice.Text() != "Proposal accepted — review the form and submit when ready." {
		t.Fatalf("status %q", k.m.notice.Text())
	}
	for _, key := range []string{"k", "j", "k"} {
		k.clock.advance(100 * time.Millisecond)
		_, cmd = k.m.Update(typed(key))
		deliver(k.m, cmd)
	}
	if got := k.m.pane.live.Values()["environment"]; got != "production" {
		t.Fatalf("the keys typed with the decision chose %v", got)
	}
	k.clock.advance(burstGap)
	_, cmd = k.m.Update(typed("j"))
	deliver(k.m, cmd)
	if got := k.m.pane.live.Values()["environment"]; got != "staging" {
		t.Fatalf("after a pause, j chose %v", got)
	}
}
