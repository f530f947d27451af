package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/chatlist"
	"followup/ui/dialog"
)

// askFromServe asks title from an MCP client's serve session, as
// `followup mcp serve` does, and returns the request.
func askFromServe(t *testing.T, k *kit, client, title string) chat.RequestView {
	t.Helper()
	ctx := context.Background()
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: client, Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.End(ctx) }) // the session lives as long as the test
	var res struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"k","reason":"To deploy there",
		"source":{"kind":"dynamic","definition":{"title":"`+title+`","fields":[{"name":"region","type":"text"}]}}}`)), &res)
	r, err := k.svc.Request(ctx, res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A question an MCP client asks while the screen is on another chat joins
// the tab row after this chat's own, marked with who asks; the notice line
// says who asks what; ctrl+n past this chat's question turns the screen to
// the client's chat with that question shown, and ctrl+p goes back.
func TestQuestionsOfOtherChatsJoinTheTabRow(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	trip := k.ask("Plan a trip")
	region := askFromServe(t, k, "Claude Code", "Pick a region")
	k.load(trip.ChatID)
	deliver(m, countElsewhere(k.svc, trip.ChatID, m.width))
	v := frameOf(m)
	if !containsAll(v, "1 Plan the trip", "↗ Claude Code: Pick a region",
		"1 question waits in another chat: Claude Code asks “Pick a region” — ctrl+n shows it") {
		t.Fatalf("the inbox on the trip's chat:\n%s", v)
	}
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyCtrlN}))
	deliver(m, countElsewhere(k.svc, m.cur.chatID, m.width))
	if r, ok := m.pane.activeRequest(); m.cur.chatID != region.ChatID || !ok || r.ID != region.ID {
		t.Fatalf("after ctrl+n: chat %s (want %s), question %q", m.cur.chatID, region.ChatID, r.Title)
	}
	if v := frameOf(m); !containsAll(v, "asked by Claude Code", "↗ The agent: Plan the trip") {
		t.Fatalf("the client's chat:\n%s", v)
	}
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyCtrlP}))
	if r, _ := m.pane.activeRequest(); m.cur.chatID != trip.ChatID || r.Title != "Plan the trip" {
		t.Fatalf("after ctrl+p: chat %s, question %q", m.cur.chatID, r.Title)
	}
	if strings.Contains(frameOf(m), "Pick a region") && !strings.Contains(frameOf(m), "↗ Claude Code: Pick a region") {
		t.Fatalf("the client's question is drawn outside its tab:\n%s", frameOf(m))
	}
	// From a chat with no question of its own, ctrl+n shows the oldest
	// waiting elsewhere, ctrl+p the newest: the one the notice names, with
	// the key that shows it.
	deliver(m, m.switchChat(""))
	deliver(m, countElsewhere(k.svc, "", m.width))
	if v := frameOf(m); !containsAll(v, "2 questions wait in other chats: newest: Claude Code asks “Pick a region” — ctrl+p shows it") {
		t.Fatalf("a new chat:\n%s", v)
	}
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyCtrlP}))
	if r, _ := m.pane.activeRequest(); m.cur.chatID != region.ChatID || r.ID != region.ID {
		t.Fatalf("ctrl+p from a new chat: chat %s, question %q", m.cur.chatID, r.Title)
	}
}

// TestTabRowDrawsOnlyTheOtherQuestionsInReach: with thousands of questions
// waiting elsewhere the tab row is the one drawn with the first few of
// them (the rest are past its window, behind ›), and drawing it costs what
// drawing it with those few does.
func TestTabRowDrawsOnlyTheOtherQuestionsInReach(t *testing.T) {
	// Not parallel: AllocsPerRun counts the process's allocations.
	k := newKit(t)
	m := k.m
	trip := k.ask("Plan a trip")
	k.load(trip.ChatID)
	many := make([]chat.RequestView, 2000)
	for i := range many {
		many[i].ID, many[i].Title, many[i].ChatID = "r"+strings.Repeat("x", i%7), "A question waiting elsewhere", "other"
	}
	m.cur.others = many[:40]
	few := m.tabRow()
	fewAllocs := testing.AllocsPerRun(5, func() { m.tabRow() })
	m.cur.others = many
	if row := m.tabRow(); row != few || !strings.HasSuffix(row, "›") {
		t.Fatalf("with 2,000 questions elsewhere the row is\n%q\nwant the row drawn with 40 of them,\n%q", row, few)
	}
	if allocs := testing.AllocsPerRun(5, func() { m.tabRow() }); allocs > 2*fewAllocs {
		t.Fatalf("the row with 2,000 questions elsewhere made %.0f allocations, with 40 %.0f: it draws tabs it cannot show", allocs, fewAllocs)
	}
}

// The chat list opens with its cursor on the row of what is on screen —
// the new chat too, when a question waits in another chat — so enter
// there stays where the user was.
func TestChatListStartsOnTheChatOnScreen(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	k.ask("Plan a trip")
	if err := k.svc.SaveComposerDraft(context.Background(), "", "half a thought"); err != nil {
		t.Fatal(err)
	}
	deliver(m, loadChat(k.svc, "", prep{}))
	if !m.cur.newChat || m.composer.Value() != "half a thought" || m.cur.elsewhere != 1 {
		t.Fatalf("new chat %v, composer %q, %d waiting elsewhere", m.cur.newChat, m.composer.Value(), m.cur.elsewhere)
	}
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyEsc}))
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyCtrlO}))
	d, ok := dialog.Find[dialog.Chats](&m.dialogs)
	if !ok {
		t.Fatal("ctrl+o opened no chat list")
	}
	if c, _ := d.List().Selected(); !chatlist.IsNew(c) {
		t.Fatalf("the cursor is on %q, not on the new chat on screen", c.Title)
	}
	deliver(m, m.update(tea.KeyMsg{Type: tea.KeyEnter}))
	if !m.cur.newChat || m.composer.Value() != "half a thought" {
		t.Fatalf("enter left the new chat: new %v, composer %q", m.cur.newChat, m.composer.Value())
	}
}
