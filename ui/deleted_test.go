package ui

import (
	"context"
	"strings"
	"testing"

	"followup/ui/dialog"

	tea "github.com/charmbracelet/bubbletea"
)

// The open chat deleted elsewhere while text waits in the composer: the
// screen moves to a new chat, says so in one line, and keeps the text,
// which sending then makes that new chat with.
func TestChatDeletedElsewhereKeepsWhatWasTyped(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc, ctx := k.m, k.svc, context.Background()
	sent := k.ask("Plan a trip")
	k.load(sent.ChatID)
	typeInto(m, "and book a hotel")
	if err := svc.Delete(ctx, sent.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.load(m.cur.chatID)) // the event of another process's commit
	if !m.cur.newChat || m.composer.Value() != "and book a hotel" || !strings.Contains(m.notice.Text(), "deleted elsewhere") {
		t.Fatalf("new chat %v, composer %q, status %q", m.cur.newChat, m.composer.Value(), m.notice.Text())
	}
	if v := frameOf(m); strings.Contains(v, "Plan the trip") || !strings.Contains(v, "deleted elsewhere") {
		t.Fatalf("the deleted chat's question is still drawn:\n%s", v)
	}
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter}))
	page, err := svc.ChatList(ctx, "", 10)
	chats := page.Chats
	if err != nil || len(chats) != 1 || chats[0].ID == sent.ChatID {
		t.Fatalf("chats %v, %v: want the one new chat", chats, err)
	}
	msgs, _, _ := svc.TranscriptPage(ctx, chats[0].ID, 0, 10)
	if len(msgs) == 0 || msgs[0].Content != "and book a hotel" {
		t.Fatalf("the new chat's messages: %v", msgs)
	}
}

// With nothing typed, the screen shows the newest chat left; a message
// sent to the deleted chat before the screen knew comes back to the
// composer, in a new chat.
func TestChatDeletedElsewhereShowsAnotherChat(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc, ctx := k.m, k.svc, context.Background()
	other := k.ask("Check deployment")
	gone := k.ask("Plan a trip")
	k.load(gone.ChatID)
	if err := svc.Delete(ctx, gone.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	deliver(m, m.load(m.cur.chatID))
	if m.cur.newChat || m.cur.chatID != other.ChatID || !strings.Contains(m.notice.Text(), "deleted elsewhere") {
		t.Fatalf("on chat %q (new %v), want %q; status %q", m.cur.chatID, m.cur.newChat, other.ChatID, m.notice.Text())
	}

	again := k.ask("Plan a trip")
	deliver(m, m.do(dialog.OpenChat{ChatID: again.ChatID}))
	if err := svc.Delete(ctx, again.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	m.setFocus(focusComposer)
	typeInto(m, "one more thing")
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter})) // refused: NOT_FOUND
	if !m.cur.newChat || m.composer.Value() != "one more thing" {
		t.Fatalf("new chat %v, composer %q", m.cur.newChat, m.composer.Value())
	}
}
