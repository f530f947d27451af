package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// A question answered elsewhere while the user types in its form: one
// line says so, and a card keeps what they had typed readable (beside
// what was answered there) until they dismiss it.
func TestAnsweredElsewhereKeepsWhatWasTypedReadable(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: r.ID, Values: map[string]any{
		"destination": "Rome", "start": "2026-08-01", "travelers": 2, "transport": "train"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if !showing[dialog.Closed](m) {
		t.Fatalf("dialogs %v", m.dialogs)
	}
	// Said once: by the card, not again by the status line.
	v := frameOf(m)
	if !containsAll(v, "was answered from another window", "Answered there: Destination: Rome", "What you had typed (not sent):", "Travellers: 3") ||
		strings.Count(v, "was answered from another window") != 1 {
		t.Fatalf("status %q, the card:\n%s", m.notice.Text(), v)
	}
	// It takes the focus by the focus rule; esc then dismisses it.
	k.clock.advance(focusPause)
	k.tick()
	m.moves.at = m.moves.at.Add(-dialogGrace)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEsc}))
	if !m.dialogs.Empty() {
		t.Fatalf("esc left %v", m.dialogs)
	}
}

// Every kind of close is said in its words; with nothing typed there is no
// card, only the line. What this screen closes itself is not news.
func TestEveryCloseIsSaid(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	r, _ := m.pane.activeRequest()
	other := elsewhere(t, k)
	if _, err := other.Cancel(ctx, r.ID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.notice.Text() != "“Plan the trip” was cancelled elsewhere." || !m.dialogs.Empty() {
		t.Fatalf("status %q, dialogs %v", m.notice.Text(), m.dialogs)
	}
	for reason, want := range map[string]string{
		chat.ReasonWithdrawn: "was withdrawn by the agent", chat.ReasonDisconnected: "was closed: the agent disconnected",
		"deadline": "“x” expired: its deadline passed", "task_stopped": "“x” expired: the task was stopped",
	} {
		got := closedWhy(chat.RequestView{RequestItem: chat.RequestItem{State: "expired", ClosedReason: reason, Owner: chat.Owner{Kind: chat.OwnerAgent}}})
		if !strings.Contains("“x” "+got, want) {
			t.Errorf("%s: %q, want %q", reason, got, want)
		}
	}

	// Answered here, even when the snapshot comes before the answer's
	// receipt: no line about elsewhere, no card.
	deploy := k.ask("Check deployment")
	deliver(m, m.do(dialog.OpenChat{ChatID: deploy.ChatID}))
	dr, _ := m.pane.activeRequest()
	m.setFocus(focusForm)
	deliver(m, m.updateForm(tea.KeyMsg{Type: tea.KeyEnter}))
	answered := cmdtest.Run(m.onKey(tea.KeyMsg{Type: tea.KeyEnter})) // recorded, not yet reported
	deliver(m, m.load(m.cur.chatID))                                 // the host's event came first
	for _, msg := range answered {
		_, next := m.Update(msg)
		deliver(m, next)
	}
	if got, _ := k.svc.Request(ctx, dr.ID); got.State != "answered" {
		t.Fatalf("the deploy question is %s", got.State)
	}
	if strings.Contains(m.notice.Text(), "another window") || showing[dialog.Closed](m) {
		t.Fatalf("this screen's own answer was said to come from elsewhere: %q, dialogs %v", m.notice.Text(), m.dialogs)
	}
}

// A key an instant after a card took the focus goes back to where the user
// was, and the card asks for the focus again at the next pause — not only
// after another key.
func TestStrayKeyAsksForTheFocusAgain(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.clock.stop()
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	if _, err := elsewhere(t, k).Cancel(ctx, r.ID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	k.clock.advance(focusPause)
	k.tick()
	if m.focus != focusDialog || !showing[dialog.Closed](m) {
		t.Fatalf("focus %v, dialogs %v", m.focus, m.dialogs)
	}
	before := m.moves.seq
	k.press(tea.KeyMsg{Type: tea.KeyEsc}) // within the grace
	if m.focus != focusComposer || !showing[dialog.Closed](m) {
		t.Fatalf("the stray key acted on the card: focus %v, dialogs %v", m.focus, m.dialogs)
	}
	if m.moves.seq == before {
		t.Fatal("no focus check is on its way: the card waits for another key")
	}
}

// Sent an instant after it was answered elsewhere, the answer is refused
// (TARGET_CLOSED), and what the user had typed stays readable as for any
// close.
func TestSentAfterAnsweredElsewhereKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	m.openReview()
	send := m.onKey(tea.KeyMsg{Type: tea.KeyEnter})
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: r.ID, Values: map[string]any{
		"destination": "Rome", "start": "2026-08-01", "travelers": 2, "transport": "train"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, send)
	if !showing[dialog.Closed](m) || !containsAll(frameOf(m), "was answered from another window", "Travellers: 3") {
		t.Fatalf("status %q, dialogs %v\n%s", m.notice.Text(), m.dialogs, frameOf(m))
	}
	if got, _ := k.svc.Request(ctx, r.ID); !chat.SameValue(got.Answer.Values["travelers"], 2) {
		t.Fatalf("answer %v", got.Answer.Values)
	}
}

// The card about a question closed under its form does not cover the
// next question's form: above that form it is one line, saying where
// what was typed is kept, and the focus key from the form opens it; esc
// dismisses it and the form is back.
func TestClosedCardDoesNotCoverTheNextQuestion(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: "Claude Code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	ask := func(key, title string) string {
		var res struct {
			RequestID string `json:"requestId"`
		}
		json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"`+key+`","source":{"kind":"dynamic","definition":{"title":"`+title+`","fields":[{"name":"`+key+`","type":"text","label":"`+title+`"}]}}}`)), &res)
		return res.RequestID
	}
	ask("size", "Pick a size")
	region := ask("region", "Pick a region")
	r, _ := k.svc.Request(ctx, region)
	k.load(r.ChatID)
	if q, _ := m.pane.activeRequest(); q.ID != region || m.pane.live == nil {
		t.Fatalf("shown %q", q.Title)
	}
	m.setFocus(focusForm)
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("eu-west")})
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: region, Values: map[string]any{"region": "us-east"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	k.clock.advance(focusPause)
	k.tick()
	v := frameOf(m)
	if !containsAll(v, "“Pick a region” was answered from another window · what you typed: ctrl+f from the form", "Pick a size") ||
		strings.Contains(v, "What you had typed (not sent):") {
		t.Fatalf("the next question's form is covered:\n%s", v)
	}
	m.setFocus(focusForm)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlF}))
	if v := frameOf(m); !containsAll(v, "What you had typed (not sent):", "eu-west", "Answered there: Pick a region: us-east") {
		t.Fatalf("ctrl+f from the form does not open the card:\n%s", v)
	}
	m.moves.at = m.moves.at.Add(-dialogGrace)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEsc}))
	if v := frameOf(m); !m.dialogs.Empty() || !containsAll(v, "Pick a size") || strings.Contains(v, "what you typed: ctrl+f") {
		t.Fatalf("after esc: dialogs %v\n%s", m.dialogs, v)
	}
}

// A cancel that failed leaves its question as it was: closed elsewhere
// later, that is news again (the card shows what was typed).
func TestFailedCancelLeavesTheQuestionOpenHere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	m.pane.closing(r.ID)
	m.Update(doneMsg{err: &chat.Error{Code: chat.CodeDatabaseBusy, Message: "the database is busy"}, closing: []string{r.ID}})
	if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: r.ID, Values: map[string]any{
		"destination": "Rome", "start": "2026-08-01", "travelers": 2, "transport": "train"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if !showing[dialog.Closed](m) {
		t.Fatalf("no card after a failed cancel and an answer elsewhere: status %q", m.notice.Text())
	}
}

// The card lists only what this window holds that the answer given
// elsewhere does not: a value answered there exactly as typed here was
// sent, by the other hand. When every typed value was answered as typed,
// there is nothing unsent to keep: one line says so, and no card opens.
func TestAnsweredElsewhereListsOnlyWhatDiffers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	answer := func(k *kit, id string, travelers int) {
		t.Helper()
		if _, err := elsewhere(t, k).Answer(ctx, chat.AnswerInput{RequestID: id, Values: map[string]any{
			"destination": "Oslo", "start": "2026-08-01", "travelers": travelers, "transport": "train"}}); err != nil {
			t.Fatal(err)
		}
		deliver(k.m, k.m.update(eventMsg{Kind: chat.EvExternal}))
	}
	typeIn := func(m *model, field, text string) {
		deliver(m, m.pane.live.Edit(field))
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)})
	}

	// Oslo as typed, 2 travellers there against 3 here.
	k := newKit(t)
	r := tripOnScreen(t, k) // travellers: 3
	typeIn(k.m, "destination", "Oslo")
	answer(k, r.ID, 2)
	v := frameOf(k.m)
	if !showing[dialog.Closed](k.m) || !containsAll(v, "What you had typed (not sent):", "Travellers: 3") ||
		strings.Contains(v, "Destination: Oslo\n") || strings.Contains(strings.SplitN(v, "What you had typed", 2)[1], "Oslo") {
		t.Fatalf("dialogs %v, the card:\n%s", k.m.dialogs, v)
	}

	// Everything typed was answered as typed: no card, one line.
	k = newKit(t)
	r = tripOnScreen(t, k)
	typeIn(k.m, "destination", "Oslo")
	answer(k, r.ID, 3)
	if showing[dialog.Closed](k.m) || k.m.notice.Text() != "“Plan the trip” was answered from another window, with what you had typed." {
		t.Fatalf("status %q, dialogs %v\n%s", k.m.notice.Text(), k.m.dialogs, frameOf(k.m))
	}
	if strings.Contains(frameOf(k.m), "What you had typed") {
		t.Fatalf("an unsent part with nothing unsent:\n%s", frameOf(k.m))
	}
}
