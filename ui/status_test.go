package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/status"
	"followup/ui/words"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// A status line belongs to one moment: it stays while the chat is as it
// was when the status was set, and clears when a new question arrives or
// at the next key.
func TestStatusClearsWhenItNoLongerHolds(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	k.m.setStatus("Answer sent.", false)
	k.load(sent.ChatID)
	k.load(sent.ChatID)
	if k.m.notice.Text() != "Answer sent." {
		t.Fatalf("the status went while nothing changed: %q", k.m.notice.Text())
	}
	k.say(sent.ChatID, "and plan a trip")
	k.load(sent.ChatID)
	if k.m.notice.Text() != "" {
		t.Fatalf("%q still shown under a new question", k.m.notice.Text())
	}
	k.m.setStatus("No task is running in this chat.", false)
	k.m.Update(typed("x"))
	if k.m.notice.Text() != "" {
		t.Fatalf("%q still shown after a key", k.m.notice.Text())
	}
}

// "Resuming…" gives way, once the runs it resumes have been driven, to
// what was done.
func TestResumingClearsWhenDone(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load("")
	retryMsg{runs: []chat.RunView{{ID: "run_a"}, {ID: "run_b"}}}.apply(k.m)
	k.m.Update(driveDoneMsg{runID: "run_a"})
	if k.m.notice.Text() != "Resuming 2 interrupted runs…" {
		t.Fatalf("status %q with a run still resuming", k.m.notice.Text())
	}
	k.m.Update(driveDoneMsg{runID: "run_b"})
	if k.m.notice.Text() != "Resumed 2 interrupted runs." {
		t.Fatalf("%q after every run was resumed", k.m.notice.Text())
	}
}

// Stopping the task is said once, by the transcript.
func TestStopIsSaidOnce(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	k.m.Update(stopTask(k.svc, sent.RunID)())
	k.load(sent.ChatID)
	if v := frameOf(k.m); !containsAll(v, "the task was stopped") || k.m.notice.Text() != "" {
		t.Fatalf("status %q:\n%s", k.m.notice.Text(), v)
	}
}

// Counts agree with their words, and a run waiting for the user says so
// in words.
func TestWordsAgreeWithTheirNumber(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load(k.ask("Check deployment").ChatID)
	for n, want := range map[int]string{1: "1 question waits in another chat", 2: "2 questions wait in other chats"} {
		k.m.Update(elsewhereMsg{chatID: k.m.cur.chatID, n: n})
		if v := frameOf(k.m); !containsAll(v, want, "waiting for your answer") {
			t.Fatalf("want %q:\n%s", want, v)
		}
	}
	if got := words.Labelled("What should I work on?", "build a website"); got != "What should I work on? “build a website”" {
		t.Fatalf("labelled = %q", got)
	}
	if got := words.Labelled("Environment", "staging"); got != "Environment: staging" {
		t.Fatalf("labelled = %q", got)
	}
}

// A proposal lists its changes in the order the form asks them.
func TestProposalListsChangesInFormOrder(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	ctx := context.Background()
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	r, _ := k.m.pane.activeRequest()
	if _, err := k.svc.Resolve(ctx, r.ID, r.Digest, map[string]any{"budget": 900, "destination": "Oslo", "travelers": 2}, ""); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	v := frameOf(k.m)
	d, tr, b := strings.Index(v, "Destination:"), strings.Index(v, "Travellers:"), strings.Index(v, "Budget:")
	if d < 0 || tr < 0 || b < 0 || !(d < tr && tr < b) {
		t.Fatalf("changes not in the form's order:\n%s", v)
	}
}

// An error reads as a sentence for people; its code follows, apart, for
// a bug report — never "CODE: message".
func TestErrorsReadAsSentences(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	k.load(k.ask("Check deployment").ChatID)
	k.m.setErr("", &chat.Error{Code: chat.CodeTargetClosed, Message: "the proposal is superseded"})
	v := frameOf(k.m)
	if !containsAll(v, "The proposal is superseded. TARGET_CLOSED") || strings.Contains(v, "TARGET_CLOSED:") {
		t.Fatalf("the error line:\n%s", v)
	}
	k.m.setErr("Nothing was sent: ", &chat.Error{Code: chat.CodeTargetClosed, Message: "The request is answered"})
	if v := frameOf(k.m); !containsAll(v, "Nothing was sent: the request is answered. TARGET_CLOSED") {
		t.Fatalf("the error line after a prefix:\n%s", v)
	}
	k.m.setStatus("Answer sent.", false)
	if v := frameOf(k.m); strings.Contains(v, "TARGET_CLOSED") {
		t.Fatalf("the code outlived its error:\n%s", v)
	}
}

// "Answer sent." in a serve chat gives way to the client's next question,
// even when the first snapshot read after the answer already holds it.
func TestStatusGivesWayToTheNextServeQuestion(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	ctx := context.Background()
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: "Claude Code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	ask := func(key, title string) string {
		var res struct {
			RequestID string `json:"requestId"`
		}
		json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"`+key+`","source":{"kind":"dynamic","definition":{"title":"`+title+`","fields":[{"name":"v","type":"text"}]}}}`)), &res)
		return res.RequestID
	}
	first := ask("a", "Pick a region")
	r, err := k.svc.Request(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	k.load(r.ChatID)
	k.m.pane.closing(first) // answered by this screen
	receipt, err := k.svc.Answer(ctx, chat.AnswerInput{RequestID: first, Values: map[string]any{"v": "eu"}})
	if err != nil {
		t.Fatal(err)
	}
	k.m.Update(answeredMsg{receipt: receipt})
	if k.m.notice.Text() != "Answer sent." {
		t.Fatalf("status %q after the answer", k.m.notice.Text())
	}
	ask("b", "Pick a size")
	k.load(r.ChatID)
	if k.m.notice.Text() != "" {
		t.Fatalf("%q still shown under the next question:\n%s", k.m.notice.Text(), frameOf(k.m))
	}
}

// A notice never hides the inbox: a question that arrives in another chat
// while "Answer sent." or any other notice shows takes the line at once,
// with its count; a notice that is no error ends by itself after a while.
func TestANoticeNeverHidesAQuestionFromElsewhere(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	deliver(m, countElsewhere(k.svc, sent.ChatID, m.width))
	for _, notice := range []struct {
		words string
		err   bool
	}{{"Answer sent.", false}, {"Nothing to resume or retry in this chat.", false}, {"Claude Code was closed: it disconnected.", true}} {
		m.setStatus(notice.words, notice.err)
		m.arrange()
		askFromServe(t, k, "Claude Code", "Pick a region "+notice.words[:4])
		deliver(m, countElsewhere(k.svc, sent.ChatID, m.width))
		if v := frameOf(m); strings.Contains(v, notice.words) || !strings.Contains(v, "in other chats") && !strings.Contains(v, "in another chat") {
			t.Fatalf("a question arrived elsewhere under %q:\n%s", notice.words, v)
		}
	}
	// "Nothing to resume…" ends by itself: the update that says it asks
	// for its end.
	m.setFocus(focusComposer)
	var cmd tea.Cmd
	for _, msg := range cmdtest.Run(m.onKey(tea.KeyMsg{Type: tea.KeyCtrlR})) {
		_, cmd = m.Update(msg)
	}
	if !strings.HasPrefix(m.notice.Text(), "Nothing to resume") {
		t.Fatalf("after ctrl+r the status is %q", m.notice.Text())
	}
	for _, msg := range cmdtest.RunTimers(cmd) {
		if e, ok := msg.(status.EndMsg); ok {
			m.Update(e)
		}
	}
	if m.notice.Text() != "" {
		t.Fatalf("%q still shown after its time", m.notice.Text())
	}
	m.setStatus("Answer sent.", false)
	gen := m.notice.Gen()
	m.setStatus("Could not send.", true)
	if m.Update(status.EndMsg{Gen: gen}); m.notice.Text() == "" {
		t.Fatal("an older notice's time ended a newer one")
	}
}

// A notice wider than the screen wraps onto the lines it needs (three at
// most), and the layout gives it them: nothing of it is cut at the width
// and the frame stays the screen's height.
func TestLongNoticeWraps(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	words := "The MCP server weather could not be started: its command exited with status 1 before it answered the initialize request."
	m.notice.SetErr("", &chat.Error{Code: chat.CodeInvalidArgument, Message: words}, 0)
	v := frameOf(m)
	if got := strings.Join(strings.Fields(ansi.Strip(v)), " "); !strings.Contains(got, words+" INVALID_ARGUMENT") {
		t.Fatalf("the notice is not whole on screen:\n%s", v)
	}
	if h := lipgloss.Height(v); h != 20 {
		t.Fatalf("the frame is %d lines on a screen of 20:\n%s", h, v)
	}
	m.setStatus(strings.Repeat("a long notice ", 30), false)
	if v := frameOf(m); lipgloss.Height(v) != 20 || !strings.Contains(v, "…") {
		t.Fatalf("a notice longer than three lines is not cut with an ellipsis:\n%s", v)
	}
}
