package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// apply runs cmd and everything it leads to through the model (giving up
// on what waits, like ticks), as the program would.
func (k *kit) apply(cmd tea.Cmd) {
	for _, msg := range cmdtest.Run(cmd) {
		_, next := k.m.Update(msg)
		k.apply(next)
	}
}

// hit sends one key to the model and carries out what it leads to.
func (k *kit) hit(msg tea.KeyMsg) {
	_, cmd := k.m.Update(msg)
	k.apply(cmd)
}

func letter(r rune) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}} }

// settleFocus lets the focus rule run: the user paused.
func (k *kit) settleFocus() {
	k.clock.advance(time.Second)
	k.m.Update(focusTickMsg{k.m.moves.seq})
	k.clock.advance(time.Second) // past the grace after the focus moved
}

// An approval arrives like a proposal: drawn unfocused until the user
// pauses with an empty composer; then y allows the call once, the run goes
// on, and the transcript shows the call and the reply.
func TestApprovalCardAllowsOnceAndTheRunGoesOn(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask(`call fake.echo {"message":"hi"}`)
	k.load(sent.ChatID)
	if !showing[dialog.Approval](k.m) || k.m.focus != focusComposer {
		t.Fatalf("the approval card did not arrive unfocused:\n%s", frameOf(k.m))
	}
	f := frameOf(k.m)
	for _, want := range []string{"Allow fake (MCP server) to run echo?", "Echoes back the message", `"message": "hi"`, "ctrl+f to decide"} {
		if !strings.Contains(f, want) {
			t.Errorf("the card does not show %q:\n%s", want, f)
		}
	}
	k.settleFocus()
	if k.m.focus != focusDialog {
		t.Fatalf("the card did not take the focus after a pause:\n%s", frameOf(k.m))
	}
	k.hit(letter('y'))
	if n := len(k.pendingApprovals(sent.ChatID)); n != 0 {
		t.Fatalf("%d approvals still pending after y", n)
	}
	f = frameOf(k.m)
	if showing[dialog.Approval](k.m) || k.m.focus != focusComposer {
		t.Fatalf("the card stayed after its decision:\n%s", f)
	}
	for _, want := range []string{"fake · echo", `{"message":"hi"}`, "✓ done", "Echo: hi …", "second line of the echo"} {
		if !strings.Contains(f, want) {
			t.Errorf("the transcript does not show %q:\n%s", want, f)
		}
	}
	if k.onlyRun().State != "succeeded" {
		t.Fatalf("run %s, want succeeded", k.onlyRun().State)
	}
}

// No key typed for the composer ever allows a tool: typing on through the
// card's arrival, with or without a pause while text is in the composer,
// and the first key right after the focus moved, all go to the composer.
func TestTypingForTheComposerNeverDecidesAnApproval(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask(`call fake.echo {"message":"hi"}`)
	for _, r := range "ya" {
		k.clock.advance(100 * time.Millisecond)
		k.hit(letter(r))
	}
	k.load(sent.ChatID) // the card arrives mid-word
	for _, r := range "yany" {
		k.clock.advance(100 * time.Millisecond)
		k.hit(letter(r))
		k.m.Update(focusTickMsg{k.m.moves.seq})
	}
	// A long pause with text in the composer: the card keeps waiting.
	k.clock.advance(5 * time.Second)
	k.m.Update(focusTickMsg{k.m.moves.seq})
	k.hit(letter('a'))
	if got := k.m.composer.Value(); got != "yayanya" || k.m.focus != focusComposer {
		t.Fatalf("composer %q, focus %v; want every letter typed in the composer", got, k.m.focus)
	}
	// Emptied, then a pause: the card takes the focus; a key typed at
	// once was meant for the composer and goes there.
	k.m.composer.Reset()
	k.clock.advance(time.Second)
	k.m.Update(focusTickMsg{k.m.moves.seq})
	if k.m.focus != focusDialog {
		t.Fatalf("the card did not take the focus after a pause with the composer empty")
	}
	k.hit(letter('y'))
	if k.m.composer.Value() != "y" || k.m.focus != focusComposer {
		t.Fatalf("a key right after the focus moved decided the card (composer %q)", k.m.composer.Value())
	}
	if n := len(k.pendingApprovals(sent.ChatID)); n != 1 {
		t.Fatalf("%d approvals pending, want the one still waiting", n)
	}
}

// "Allow for this chat" lets the tool run without asking again here; deny
// tells the model and the task goes on.
func TestApprovalForTheChatAndDeny(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask(`call fake.echo {"message":"one"}`)
	k.load(sent.ChatID)
	k.settleFocus()
	k.hit(letter('a'))
	k.say(sent.ChatID, `call fake.echo {"message":"two"}`)
	k.load(sent.ChatID)
	if showing[dialog.Approval](k.m) || len(k.pendingApprovals(sent.ChatID)) != 0 {
		t.Fatalf("echo asked again in a chat that allows it:\n%s", frameOf(k.m))
	}
	if f := frameOf(k.m); !strings.Contains(f, "Echo: two") {
		t.Fatalf("the second call did not run:\n%s", f)
	}
	other := k.ask(`call fake.echo {"message":"three"}`)
	k.apply(k.m.do(dialog.OpenChat{ChatID: other.ChatID}))
	if !showing[dialog.Approval](k.m) {
		t.Fatalf("another chat did not ask:\n%s", frameOf(k.m))
	}
	k.settleFocus()
	k.hit(letter('n'))
	f := frameOf(k.m)
	if !strings.Contains(f, "denied by you") || strings.Contains(f, "Echo: three") {
		t.Fatalf("the denied call is not shown as denied:\n%s", f)
	}
}

// The card is durable: a screen opened later (after a restart) shows it,
// and a decision made elsewhere closes it.
func TestApprovalCardComesBackAndClosesWhenDecidedElsewhere(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask(`call fake.echo {"message":"hi"}`)
	fresh := newModel(k.svc)
	fresh.now = k.clock.now
	fresh.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	fresh.Update(loadChat(k.svc, "", prep{})())
	if !showing[dialog.Approval](fresh) {
		t.Fatalf("a new screen does not show the pending approval:\n%s", frameOf(fresh))
	}
	a := k.pendingApprovals(sent.ChatID)[0]
	if _, err := k.svc.Deny(t.Context(), a.ID, ""); err != nil {
		t.Fatal(err)
	}
	fresh.Update(loadChat(k.svc, sent.ChatID, prep{})())
	if showing[dialog.Approval](fresh) {
		t.Fatalf("the card stayed after a decision elsewhere:\n%s", frameOf(fresh))
	}
}
