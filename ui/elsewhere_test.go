package ui

import (
	"context"
	"strings"
	"testing"

	"followup/chat"
	"followup/ui/dialog"
)

// The count of questions waiting in other chats follows every commit: on
// a new chat (every chat's questions are elsewhere), after a question
// asked in another chat by this process or another, and after one
// answered elsewhere.
func TestElsewhereCountFollowsEveryCommit(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	deploy := k.ask("Check deployment")
	k.load(deploy.ChatID)
	if m.cur.elsewhere > 0 {
		t.Fatalf("elsewhere %d on the only chat", m.cur.elsewhere)
	}
	deliver(m, m.do(dialog.NewChat{}))
	if m.cur.elsewhere != 1 || !strings.Contains(frameOf(m), "1 question waits in another chat") {
		t.Fatalf("on a new chat: elsewhere %d\n%s", m.cur.elsewhere, frameOf(m))
	}

	// Another process asks in a chat of its own.
	other := k.otherProcess()
	trip := k.askOn(other, "Plan a trip")
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.cur.elsewhere != 2 || !strings.Contains(frameOf(m), "2 questions wait in other chats") {
		t.Fatalf("after an ask elsewhere: elsewhere %d\n%s", m.cur.elsewhere, frameOf(m))
	}

	// Back on the deploy chat, this process asks in another chat: its
	// event names that chat.
	deliver(m, m.do(dialog.OpenChat{ChatID: deploy.ChatID}))
	if m.cur.elsewhere != 1 {
		t.Fatalf("on the deploy chat: elsewhere %d", m.cur.elsewhere)
	}
	more := k.ask("Check deployment")
	deliver(m, m.update(eventMsg{Kind: chat.EvRequest, ChatID: more.ChatID}))
	if m.cur.elsewhere != 2 {
		t.Fatalf("after a question in another chat: elsewhere %d", m.cur.elsewhere)
	}

	// Answered elsewhere, it no longer waits.
	rs, err := other.Pending(ctx, trip.ChatID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("trip pending %v, %v", rs, err)
	}
	if _, err := other.Cancel(ctx, rs[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Drive(ctx, trip.RunID); err != nil { // as the CLI does
		t.Fatal(err)
	}
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if m.cur.elsewhere != 1 || !strings.Contains(frameOf(m), "1 question waits in another chat") {
		t.Fatalf("after one was closed elsewhere: elsewhere %d\n%s", m.cur.elsewhere, frameOf(m))
	}
}

// A notice on a chat with no question of its own stands above the line of
// the questions waiting elsewhere, never in its place: nothing else on the
// screen says they wait.
func TestNoticeNeverHidesQuestionsElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	k.load(k.ask("Check deployment").ChatID)
	deliver(m, m.do(dialog.NewChat{}))
	m.setStatus("Tool calls folded.", false)
	f := frameOf(m)
	if i := strings.Index(f, "Tool calls folded."); i < 0 || !strings.HasPrefix(strings.TrimLeft(f[i+len("Tool calls folded."):], " \n"), "1 question waits in another chat") {
		t.Fatalf("the notice hides the question elsewhere:\n%s", f)
	}
}

// The runs to resume are said under the questions waiting elsewhere, not
// hidden by them.
func TestInterruptedRunsShowBesideQuestionsElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	k.load(k.ask("Check deployment").ChatID)
	deliver(m, m.do(dialog.NewChat{}))
	m.cur.orphans = []chat.RunView{{ID: "run_a"}, {ID: "run_b"}}
	if f := frameOf(m); !strings.Contains(f, "1 question waits in another chat") || !strings.Contains(f, "2 interrupted runs found — ctrl+r resumes them") {
		t.Fatalf("the questions elsewhere hide the runs to resume:\n%s", f)
	}
}
