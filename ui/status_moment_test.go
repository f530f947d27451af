package ui

import (
	"context"
	"strings"
	"testing"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// A status about the form on screen ends when the chat's moment moves on
// elsewhere: archived or made active again from another process, as when
// its question is cancelled there.
func TestStatusEndsWhenTheChatIsArchivedElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	other := elsewhere(t, k)
	answered := func() {
		t.Helper()
		if _, err := other.Answer(ctx, chat.AnswerInput{RequestID: r.ID,
			Values: map[string]any{"destination": "Oslo", "travelers": 5}}); err != nil {
			t.Fatal(err)
		}
		deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
		if m.notice.Text() == "" {
			t.Fatal("no status about the values answered elsewhere")
		}
	}
	answered()
	// Said whole on a screen 100 wide, not cut.
	if l := lineWith(frameOf(m), "Answered elsewhere"); !strings.Contains(l, "Answered elsewhere, now in the form: Destination; yours kept: Travellers.") {
		t.Fatalf("the notice line is %q", l)
	}
	if _, err := other.Archive(ctx, r.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.notice.Text() != "" {
		t.Fatalf("after the chat was archived elsewhere the status says %q", m.notice.Text())
	}
	if _, err := other.Unarchive(ctx, r.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.notice.Text() != "" {
		t.Fatalf("after the chat was unarchived elsewhere the status says %q", m.notice.Text())
	}
}

// The first change after the status was set already ends it: the
// question cancelled elsewhere right after its values were answered
// there.
func TestStatusEndsWhenTheQuestionIsCancelledElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	r := tripOnScreen(t, k)
	other := elsewhere(t, k)
	if _, err := other.Answer(ctx, chat.AnswerInput{RequestID: r.ID,
		Values: map[string]any{"destination": "Oslo"}}); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.notice.Text() == "" {
		t.Fatal("no status about the values answered elsewhere")
	}
	if _, err := other.Cancel(ctx, r.ID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if strings.Contains(m.notice.Text(), "Answered elsewhere") {
		t.Fatalf("after the question was cancelled elsewhere the status says %q", m.notice.Text())
	}
}

// A line of several problems says how many first, so a narrow screen
// cuts the message, never the count.
func TestProblemLineKeepsItsCountWhenCut(t *testing.T) {
	ps := []forms.Problem{{Message: "Start date is not a valid date (YYYY-MM-DD)"},
		{Message: "Travellers must be a whole number"}, {Message: "Transport is required"}}
	if l := style.Truncate(problemLine(ps), 40); !strings.HasPrefix(l, "✗ 3 problems: Start date") {
		t.Fatalf("cut to 40 columns the line is %q", l)
	}
	if l := problemLine(ps[:1]); l != "✗ Start date is not a valid date (YYYY-MM-DD)" {
		t.Fatalf("one problem: %q", l)
	}
}
