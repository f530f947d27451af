package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

func TestEmptyChatListKeysDoNotPanic(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
	m.Update(dialog.ChatsRead{})
	for _, k := range []string{"j", "down", "a", "d", "d"} {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	_ = m.View()
}

func TestZeroSizeDoesNotPanic(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	m.setStatus("something to say", true)
	m.Update(tea.WindowSizeMsg{Width: 0, Height: 0})
	_ = m.View()
}

// A cancel confirmation is about one question: if that question closes
// meanwhile, the dialog closes and the other question is left alone.
func TestConfirmationFollowsItsQuestion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k := newKit(t)
	m, svc := k.m, k.svc
	sent := k.ask("Check deployment")
	second := `{"requestKey":"second","source":{"kind":"dynamic","definition":{"title":"Pick a region",
		"fields":[{"name":"region","type":"select","options":["eu","us"]}]}}}`
	opened, err := svc.OpenRequest(ctx, sent.RunID, "call_x", json.RawMessage(second))
	if err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	m.pane.active = opened.RequestID
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlX})
	if !showing[dialog.Confirm](m) {
		t.Fatalf("dialogs %v", m.dialogs)
	}
	if _, err := svc.Cancel(ctx, opened.RequestID, ""); err != nil { // elsewhere
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	if !m.dialogs.Empty() || !strings.Contains(m.notice.Text(), "“Pick a region” was cancelled elsewhere") {
		t.Fatalf("dialogs %v, status %q", m.dialogs, m.notice.Text())
	}
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	pend, _ := svc.Pending(ctx, sent.ChatID)
	if len(pend) != 1 || pend[0].Title != "Choose an environment" {
		t.Fatalf("the other question was touched: %+v", pend)
	}
}

// Typed text that spells a key's name is text: "enter" typed quickly
// arrives as one burst and must not send the message.
func TestTypedKeyNamesAreText(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	for _, part := range []tea.KeyMsg{
		{Type: tea.KeyRunes, Runes: []rune("press")}, {Type: tea.KeySpace, Runes: []rune(" ")},
		{Type: tea.KeyRunes, Runes: []rune("enter")}, {Type: tea.KeySpace, Runes: []rune(" ")},
		{Type: tea.KeyRunes, Runes: []rune("up")},
	} {
		m.Update(part)
	}
	if got := m.composer.Value(); got != "press enter up" {
		t.Fatalf("composer = %q", got)
	}
}

// The form's own size request must not rebuild it (and lose the field the
// user is in); a real resize does.
func TestSameSizeKeepsTheForm(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	before := m.pane.live
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.pane.live != before {
		t.Fatal("the same size rebuilt the form")
	}
}

// Accepting a proposal after editing the form shows the accepted values,
// not the draft the screen kept from before.
func TestAcceptedProposalWinsOverKeptDraft(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k := newKit(t)
	m, svc := k.m, k.svc
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	m.setFocus(focusForm)
	m.Update(tea.KeyMsg{Type: tea.KeyDown}) // the cursor on staging
	if cmd := m.pane.saveNow(); cmd != nil {
		cmd()
	}
	r, _ := m.pane.activeRequest()
	res, err := svc.Resolve(ctx, r.ID, r.Digest, map[string]any{"environment": "production"}, "")
	if err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	m.Update(decide(svc, res.ProposalID, true, map[string]any{"environment": "staging"})())
	k.load(sent.ChatID)
	if m.pane.live == nil {
		t.Fatal("no form after accepting")
	}
	if got := m.pane.live.Values()["environment"]; got != "production" {
		t.Fatalf("environment = %v, want the accepted production", got)
	}
}

// Help taller than a small terminal scrolls: the first line shows first,
// every binding can be reached, and no frame is taller than the screen.
func TestHelpScrollsOnASmallScreen(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 15})
	m.Update(tea.KeyMsg{Type: tea.KeyF1})
	seen := map[string]bool{}
	v := m.View()
	if !strings.Contains(v, "Keys") || !strings.Contains(v, "scroll") {
		t.Fatalf("help does not start at its top or does not say it scrolls:\n%s", v)
	}
	for range 80 {
		if n := strings.Count(v, "\n") + 1; n > 15 {
			t.Fatalf("a help frame of %d lines on a 15-line screen", n)
		}
		for _, l := range strings.Split(v, "\n") {
			seen[strings.TrimSpace(l)] = true
		}
		m.Update(tea.KeyMsg{Type: tea.KeyDown})
		v = m.View()
	}
	all := strings.Join(mapKeys(seen), "\n")
	for _, sec := range defaultKeys().sections() {
		for _, b := range sec.Keys {
			if !strings.Contains(all, b.Help().Desc) {
				t.Errorf("%q never shown", b.Help().Desc)
			}
		}
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if showing[dialog.Page](m) {
		t.Fatal("esc did not close help")
	}
}

func mapKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Coming back to a form — from the review, or after a resize rebuilt it —
// lands on the field that needs the user: the first one the review found
// wrong, where the submit left off, or the one that had the focus.
func TestBackToTheFormLandsOnTheField(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	m.setFocus(focusForm)
	m.pane.live.Edit("transport")
	m.Update(tea.WindowSizeMsg{Width: 90, Height: 28})
	if f := m.pane.live.Focused(); f != "transport" || !strings.Contains(m.View(), "(2/2)") {
		t.Fatalf("after a resize the focus is on %q:\n%s", f, m.View())
	}
	m.pane.problems = []forms.Problem{{Path: "/values/start", Message: "Start date: required"}}
	m.openReview()
	if v := frameOf(m); !strings.Contains(v, "back to editing to fix it") { // one problem: "it"
		t.Fatalf("the review's hint for one problem:\n%s", v)
	}
	m.onKey(tea.KeyMsg{Type: tea.KeyEsc})
	if f := m.pane.live.Focused(); !m.dialogs.Empty() || f != "start" {
		t.Fatalf("back from the review: dialogs %v, focus on %q", m.dialogs, f)
	}
	m.pane.problems = nil
	m.openReview()
	m.onKey(tea.KeyMsg{Type: tea.KeyEsc})
	if f := m.pane.live.Focused(); f != "start" {
		t.Fatalf("back from a review missing the start date: focus on %q", f)
	}
	m.pane.live.Edit("start")
	m.updateForm(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2026-05-01")})
	m.pane.live.Edit("travelers")
	m.updateForm(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	m.pane.live.Edit("transport")
	m.updateForm(tea.KeyMsg{Type: tea.KeyDown})
	m.openReview()
	m.onKey(tea.KeyMsg{Type: tea.KeyEsc})
	if f := m.pane.live.Focused(); f != "notes" {
		t.Fatalf("back from a complete review: focus on %q, want the last field", f)
	}
}

// A resize while the review is open reaches the form it goes back to.
func TestResizeBehindTheReviewReachesTheForm(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	m.setFocus(focusForm)
	m.openReview()
	m.Update(tea.WindowSizeMsg{Width: 70, Height: 16})
	m.onKey(tea.KeyMsg{Type: tea.KeyEsc})
	r, _ := m.pane.activeRequest()
	fresh := buildLive(r, m.pane.live.Draft(), "", m.pane.width, m.pane.maxHeight)
	fresh.Edit(m.pane.live.Focused())
	got, want := m.pane.live.View(), fresh.View()
	if lipgloss.Height(got) != lipgloss.Height(want) || lipgloss.Width(got) != lipgloss.Width(want) {
		t.Fatalf("the form came back %dx%d, one built at this size is %dx%d:\n%s",
			lipgloss.Width(got), lipgloss.Height(got), lipgloss.Width(want), lipgloss.Height(want), got)
	}
}

// Messages typed while the first one is making a new chat go to that chat,
// in order, not each to a chat of its own.
func TestMessagesTypedAheadJoinTheNewChat(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc := k.m, k.svc
	var cmds []tea.Cmd
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("hello")}, {Type: tea.KeyEnter},
		{Type: tea.KeyRunes, Runes: []rune("world")}, {Type: tea.KeyEnter}, {Type: tea.KeyRunes, Runes: []rune("again")}, {Type: tea.KeyEnter}} {
		_, cmd := m.Update(k)
		cmds = append(cmds, cmd)
	}
	for len(cmds) > 0 {
		c := cmds[0]
		cmds = cmds[1:]
		for _, msg := range cmdtest.Run(c) {
			if s, ok := msg.(sentMsg); ok {
				_, next := m.Update(s)
				cmds = append(cmds, next)
			}
		}
	}
	page, err := svc.ChatList(context.Background(), "", 10)
	chats := page.Chats
	if err != nil || len(chats) != 1 {
		t.Fatalf("%d chats, %v: want one", len(chats), err)
	}
	msgs, _, err := svc.TranscriptPage(context.Background(), chats[0].ID, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var typed []string
	for _, msg := range msgs {
		if msg.Role == "user" {
			typed = append(typed, msg.Content)
		}
	}
	if strings.Join(typed, ",") != "hello,world,again" {
		t.Fatalf("user messages %v", typed)
	}
}

// A second enter at the review, while the answer is on its way, sends
// nothing more (it would come back as TARGET_CLOSED).
func TestDoubleEnterAtTheReviewSendsOnce(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	m.setFocus(focusForm)
	m.pane.live.Edit("environment")
	m.updateForm(tea.KeyMsg{Type: tea.KeyDown})
	m.openReview()
	first := m.onKey(tea.KeyMsg{Type: tea.KeyEnter})
	if first == nil {
		t.Fatal("enter at the review sent nothing")
	}
	if again := m.onKey(tea.KeyMsg{Type: tea.KeyEnter}); again != nil {
		t.Fatal("a second enter sent the answer again")
	}
	m.Update(first())
	if m.notice.IsErr() {
		t.Fatalf("status %q", m.notice.Text())
	}
}

// A proposal for the question in the other tab is shown, on that tab.
func TestProposalOnTheOtherQuestionIsShown(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	sent := k.ask("Check deployment")
	k.say(sent.ChatID, "and plan a trip")
	k.load(sent.ChatID)
	if len(m.pane.pending) != 2 {
		t.Fatalf("%d questions open, want 2", len(m.pane.pending))
	}
	deploy, trip := m.pane.pending[0], m.pane.pending[1]
	m.pane.active = trip.ID // the trip question on screen
	m.pane.live, m.pane.liveKey = nil, ""
	k.load(sent.ChatID)
	k.say(sent.ChatID, "use staging") // an option of the other question
	k.load(sent.ChatID)
	if m.pane.active != deploy.ID || !showing[dialog.Proposal](m) || !strings.Contains(m.View(), "Environment: (no answer) → staging") {
		t.Fatalf("active %s (deploy %s), dialogs %v:\n%s", m.pane.active, deploy.ID, m.dialogs, m.View())
	}
}

// Deleting the open chat clears what the status line said about it.
func TestDeletingTheOpenChatClearsItsStatus(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc := k.m, k.svc
	sent := k.ask("Check deployment")
	k.load(sent.ChatID)
	m.setStatus("This chat is archived and read-only; start a new chat with ctrl+o, n.", true)
	m.onKey(tea.KeyMsg{Type: tea.KeyCtrlO})
	m.Update(listChats(svc, "", chat.DefaultChatPage)())
	m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	cmd := m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	if cmd == nil || m.notice.Text() != "" || m.cur.chatID != "" {
		t.Fatalf("after deleting the open chat: status %q, chat %q", m.notice.Text(), m.cur.chatID)
	}
}

// The first d on a chat says what deleting it throws away: a confirmed
// answer its agent has not read yet.
func TestDeleteSaysAnAnswerIsUnread(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc := k.m, k.svc
	ctx := context.Background()
	ss, err := svc.OpenServeSession(ctx, chat.ServeClient{Name: "agent", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	var res struct{ RequestID string }
	json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"k","reason":"r","source":{"kind":"dynamic","definition":{"title":"Trip","fields":[{"name":"a","type":"text","label":"A"}]}}}`)), &res)
	if _, err := svc.Answer(ctx, chat.AnswerInput{RequestID: res.RequestID, Values: map[string]any{"a": "x"}}); err != nil {
		t.Fatal(err)
	}
	m.onKey(tea.KeyMsg{Type: tea.KeyCtrlO})
	m.Update(listChats(svc, "", chat.DefaultChatPage)())
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}))
	if v := m.View(); !strings.Contains(v, "1 confirmed answer its agent has not read yet goes too: press d again") {
		t.Fatalf("the first d:\n%s", v)
	}
}

// A serve chat whose client has made no call for a while, with a question
// waiting, says its client may be gone, on the form and in the composer.
func TestQuietServeClientShown(t *testing.T) {
	t.Parallel()
	k := newKit(t, func(o *chat.Options) { o.ServeQuietAfter = time.Millisecond })
	ctx := context.Background()
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: "Claude Code", Transport: "http"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	var res struct{ RequestID string }
	json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"k","reason":"r","source":{"kind":"dynamic","definition":{"title":"Trip","fields":[{"name":"a","type":"text","label":"A"}]}}}`)), &res)
	v, err := k.svc.Request(ctx, res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	k.load(v.ChatID)
	if view := k.m.View(); !strings.Contains(view, "its client may be gone") || !strings.Contains(view, "may be gone: nobody may be waiting") {
		t.Fatalf("a quiet client:\n%s", view)
	}
}
