package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/dialog"
)

// storedDraftOf is the stored draft of the request's current revision.
func storedDraftOf(t *testing.T, k *kit, r chat.RequestView) map[string]any {
	t.Helper()
	d, _, err := k.svc.LoadDraft(context.Background(), r.ID, r.Revision)
	if err != nil {
		t.Fatal(err)
	}
	return d.Values
}

// A proposal accepted from another process while its card is on screen:
// the card goes, the form takes the accepted values and the line says so;
// an edit and its autosave afterwards keep them in the stored draft.
func TestFormTakesAProposalAcceptedElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	r, ok := m.pane.activeRequest()
	if !ok || m.pane.live == nil {
		t.Fatal("no trip form on screen")
	}
	other := elsewhere(t, k)
	p, err := other.Resolve(ctx, r.ID, r.Digest, map[string]any{"travelers": 4, "transport": "plane"}, "")
	if err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if !showing[dialog.Proposal](m) {
		t.Fatalf("no proposal card:\n%s", frameOf(m))
	}
	if _, err := other.Decide(ctx, chat.Decision{ProposalID: p.ProposalID, Accept: true}, ""); err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(eventMsg{Kind: chat.EvExternal})
	deliver(m, cmd)
	if showing[dialog.Proposal](m) {
		t.Fatal("the proposal card stayed after it was decided elsewhere")
	}
	if !strings.Contains(m.notice.Text(), "The proposal was accepted elsewhere, now in the form: Travellers, Transport.") {
		t.Fatalf("status %q", m.notice.Text())
	}
	if d := m.pane.live.Draft(); !chat.SameValue(d["travelers"], 4) || d["transport"] != "plane" {
		t.Fatalf("the form's draft %v lacks the accepted values", d)
	}
	// ctrl+f, tab, tab: an edit and its save.
	for _, key := range []tea.KeyType{tea.KeyCtrlF, tea.KeyTab, tea.KeyTab} {
		_, cmd := m.Update(tea.KeyMsg{Type: key})
		deliver(m, cmd)
	}
	deliver(m, m.pane.saveNow())
	if d := storedDraftOf(t, k, r); !chat.SameValue(d["travelers"], 4) || d["transport"] != "plane" {
		t.Fatalf("stored draft %v: the accepted values were overwritten", d)
	}
}

// The screen's autosave landing after a proposal was accepted elsewhere,
// before the screen knew: the stored draft keeps the accepted value and
// the user's typing, and the form then shows both.
func TestAnOlderDraftOnScreenDoesNotOverwriteAnAcceptedProposal(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k) // 3 travellers typed, not saved yet
	other := elsewhere(t, k)
	p, err := other.Resolve(ctx, r.ID, r.Digest, map[string]any{"transport": "plane"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Decide(ctx, chat.Decision{ProposalID: p.ProposalID, Accept: true}, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.pane.saveNow())
	if d := storedDraftOf(t, k, r); d["transport"] != "plane" || !chat.SameValue(d["travelers"], 3) {
		t.Fatalf("stored draft %v, want the accepted transport and the typed travellers", d)
	}
	_, cmd := m.Update(eventMsg{Kind: chat.EvExternal})
	deliver(m, cmd)
	if d := m.pane.live.Draft(); d["transport"] != "plane" || !chat.SameValue(d["travelers"], 3) {
		t.Fatalf("the form's draft %v", d)
	}
	if !strings.Contains(m.notice.Text(), "Changed elsewhere, now in the form: Transport.") {
		t.Fatalf("status %q", m.notice.Text())
	}
}

// A form built again from its draft — a new screen after a quit or a
// crash, or the chat switched away and back — comes back on the field the
// user was typing in, not on its first; a draft another hand writes keeps
// that field.
func TestFormComesBackOnTheFieldTypedIn(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	r, ok := m.pane.activeRequest()
	if !ok || m.pane.live == nil {
		t.Fatal("no trip form on screen")
	}
	for _, key := range []tea.KeyType{tea.KeyCtrlF, tea.KeyTab, tea.KeyTab} {
		_, cmd := m.Update(tea.KeyMsg{Type: key})
		deliver(m, cmd)
	}
	deliver(m, typeInto(m, "4"))
	deliver(m, m.pane.saveNow())
	if f := m.pane.live.Focused(); f != "travelers" {
		t.Fatalf("typed in %q, want travelers", f)
	}
	comesBack := func(when string) {
		t.Helper()
		again := newModel(k.svc)
		again.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		again.Update(loadChat(k.svc, sent.ChatID, again.prep())())
		if again.pane.live == nil || again.pane.live.Focused() != "travelers" || !strings.Contains(again.View(), "> 4") {
			t.Fatalf("%s: the form came back on %q:\n%s", when, again.pane.live.Focused(), again.View())
		}
	}
	comesBack("a new screen")
	// A proposal accepted from another process writes the draft without
	// knowing the field.
	other := k.otherProcess()
	p, err := other.Resolve(ctx, r.ID, r.Digest, map[string]any{"transport": "plane"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Decide(ctx, chat.Decision{ProposalID: p.ProposalID, Accept: true}, ""); err != nil {
		t.Fatal(err)
	}
	comesBack("after a draft written elsewhere")
}
