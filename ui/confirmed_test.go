package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// elsewhere is another process on the kit's database (the CLI, another
// window).
func elsewhere(t *testing.T, k *kit) *chat.Service {
	t.Helper()
	other, err := chat.Open(context.Background(), chat.Options{DBPath: k.svc.Path()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// tripOnScreen opens the trip question with its form focused, the user
// having typed 3 travellers.
func tripOnScreen(t *testing.T, k *kit) chat.RequestView {
	t.Helper()
	m := k.m
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	r, ok := m.pane.activeRequest()
	if !ok || m.pane.live == nil {
		t.Fatal("no trip form on screen")
	}
	m.setFocus(focusForm)
	m.pane.live.Edit("travelers")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("3")})
	return r
}

// A partial answer given elsewhere while the form is open: the form takes
// the newly confirmed values where the user has not edited (Oslo replaces
// the Shanghai suggestion, the start date appears), keeps the user's own
// edits, says so, and the review and the stored answer hold exactly what
// the form shows.
func TestFormTakesValuesAnsweredElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	other := elsewhere(t, k)
	if _, err := other.Answer(ctx, chat.AnswerInput{RequestID: r.ID,
		Values: map[string]any{"destination": "Oslo", "start": "2026-07-01"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if d := m.pane.live.Focused(); d != "travelers" {
		t.Fatalf("the focus moved to %q", d)
	}
	m.pane.live.Edit("destination") // the first page
	if v := frameOf(m); !containsAll(v, "Oslo", "2026-07-01") || strings.Contains(v, "Shanghai") {
		t.Fatalf("the form does not show the values answered elsewhere:\n%s", v)
	}
	if !strings.Contains(m.notice.Text(), "Answered elsewhere, now in the form: Destination, Start date") {
		t.Fatalf("status %q", m.notice.Text())
	}
	if d := m.pane.live.Draft(); d["travelers"] != "3" {
		t.Fatalf("the user's own edit is gone: %v", d)
	}
	m.openReview()
	if v := frameOf(m); !containsAll(v, "Destination: Oslo", "Start date: 2026-07-01", "Travellers: 3") {
		t.Fatalf("the review:\n%s", v)
	}
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter})) // transport is still missing: a partial answer
	got, err := k.svc.Request(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Partial["destination"] != "Oslo" || got.Partial["start"] != "2026-07-01" || !chat.SameValue(got.Partial["travelers"], 3) {
		t.Fatalf("stored partial answer %v", got.Partial)
	}
	if strings.Contains(m.notice.Text(), "Answered elsewhere") {
		t.Fatalf("this screen's own answer was taken for news: %q", m.notice.Text())
	}
}

// The user's own edit of a field answered elsewhere is kept, and the line
// says so.
func TestOwnEditWinsOverAValueAnsweredElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	m.pane.live.Edit("destination")
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Paris")})
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: r.ID,
		Values: map[string]any{"destination": "Oslo", "start": "2026-07-01"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if d := m.pane.live.Draft(); d["destination"] != "Paris" || d["start"] != "2026-07-01" {
		t.Fatalf("draft %v", d)
	}
	if !strings.Contains(m.notice.Text(), "yours kept: Destination") {
		t.Fatalf("status %q", m.notice.Text())
	}
	m.openReview()
	if v := frameOf(m); !strings.Contains(v, "Destination: Paris") {
		t.Fatalf("the review:\n%s", v)
	}
}

// A form drawn from a saved draft also shows what was answered elsewhere
// for the fields the draft does not have.
func TestFormFromADraftShowsThePartialAnswer(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	ctx := context.Background()
	sent := k.ask("Plan a trip")
	rs, _ := k.svc.Pending(ctx, sent.ChatID)
	r := rs[0]
	if err := k.svc.SaveDraft(ctx, chat.Draft{RequestID: r.ID, Revision: r.Revision, Values: map[string]any{"travelers": "3"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := k.svc.Answer(ctx, chat.AnswerInput{RequestID: r.ID, Values: map[string]any{"destination": "Oslo", "start": "2026-07-01"}}); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	if v := frameOf(k.m); !containsAll(v, "Oslo", "2026-07-01") || strings.Contains(v, "Shanghai") {
		t.Fatalf("the form:\n%s", v)
	}
	if d := k.m.pane.live.Draft(); d["travelers"] != "3" {
		t.Fatalf("draft %v", d)
	}
}

// A new revision made while the form is open keeps what the user had
// typed, where the new revision still asks the field, and says so.
func TestNewRevisionKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	def := `{"kind":"dynamic","definition":{"title":"Plan the trip","fields":[
		{"name":"destination","type":"text","label":"Destination","required":true},
		{"name":"travelers","type":"integer","label":"Travellers","min":1,"max":12},
		{"name":"hotel","type":"text","label":"Hotel"}]}}`
	res, err := elsewhere(t, k).Replace(ctx, chat.ReplaceInput{RequestID: r.ID, Source: json.RawMessage(def)}, "")
	if err != nil || res.ConfirmationRequired {
		t.Fatalf("replace: %+v, %v", res, err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	now, _ := m.pane.activeRequest()
	if now.Revision != r.Revision+1 || m.pane.live == nil {
		t.Fatalf("revision %d on screen, want %d", now.Revision, r.Revision+1)
	}
	if d := m.pane.live.Draft(); d["travelers"] != "3" {
		t.Fatalf("what was typed is gone: %v", d)
	}
	if !strings.Contains(m.notice.Text(), "was revised; what you had typed is kept") || !strings.Contains(frameOf(m), "Hotel") {
		t.Fatalf("status %q\n%s", m.notice.Text(), frameOf(m))
	}
}

// Sent an instant after a partial answer was given elsewhere — before the
// screen knew — the answer is refused and nothing is recorded; the form
// then shows what was answered, and the line says to review again.
func TestAnswerOverAChangedPartialIsNotSent(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	m.openReview()
	send := m.onKey(tea.KeyMsg{Type: tea.KeyEnter})
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: r.ID,
		Values: map[string]any{"start": "2026-07-01"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, send)
	got, _ := k.svc.Request(ctx, r.ID)
	if len(got.Partial) != 1 || got.Partial["start"] != "2026-07-01" {
		t.Fatalf("stored partial %v: the screen's values were recorded over it", got.Partial)
	}
	if v := m.pane.live.Values(); v["start"] != "2026-07-01" {
		t.Fatalf("the form's values %v", v)
	}
	if !strings.Contains(m.notice.Text(), "Answered elsewhere, now in the form: Start date. Nothing was sent: review it again.") {
		t.Fatalf("status %q", m.notice.Text())
	}
}
