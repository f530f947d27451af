package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/dialog"
)

// a in the chat list archives the chat under the cursor and, on an
// archived chat, unarchives it, saying which on screen; the chat keeps its
// place; the archived chat's composer says it is read-only.
func TestArchiveTogglesWithAWord(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, svc, ctx := k.m, k.svc, context.Background()
	deploy := k.ask("Check deployment")
	trip := k.ask("Plan a trip")
	k.load(deploy.ChatID)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlO}))
	press := func(want string) {
		t.Helper()
		deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")}))
		deliver(m, m.update(eventMsg{Kind: chat.EvChat, ChatID: deploy.ChatID}))
		if v := frameOf(m); !strings.Contains(v, want) {
			t.Fatalf("the list does not say %q:\n%s", want, v)
		}
		d, _ := dialog.Find[dialog.Chats](&m.dialogs)
		if ids := []string{d.List().Chats()[0].ID, d.List().Chats()[1].ID}; ids[0] != trip.ChatID || ids[1] != deploy.ChatID {
			t.Fatalf("the list's order changed: %v", ids)
		}
	}
	press("Archived “Check deployment”")
	if c, _ := svc.Chat(ctx, deploy.ChatID); c.State != "archived" {
		t.Fatalf("chat %s after a", c.State)
	}
	if v := frameOf(m); !strings.Contains(v, "a unarchive") {
		t.Fatalf("the hint does not offer to unarchive:\n%s", v)
	}
	press("Unarchived “Check deployment”")
	if c, _ := svc.Chat(ctx, deploy.ChatID); c.State != "active" {
		t.Fatalf("chat %s after a again", c.State)
	}
	press("Archived “Check deployment”")
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEsc}))
	if v := frameOf(m); !strings.Contains(v, "This chat is archived and read-only") || strings.Contains(v, "Message the agent") {
		t.Fatalf("the archived chat's composer:\n%s", v)
	}
}

// The open chat list follows what changes while it is open: a chat
// another process made, with the question it asks, is listed at once, and
// the cursor stays on its chat.
func TestTheChatListFollowsAnotherProcess(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	deploy := k.ask("Check deployment")
	k.load(deploy.ChatID)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlO}))
	k.askOn(k.otherProcess(), "Plan a trip")
	deliver(m, m.update(eventMsg{Kind: chat.EvExternal}))
	if v := frameOf(m); !strings.Contains(v, "Plan a trip · 1 question waits") || !strings.Contains(v, "Chats (2 chats)") {
		t.Fatalf("the list does not show the chat made elsewhere:\n%s", v)
	}
	if d, _ := dialog.Find[dialog.Chats](&m.dialogs); d.List().Cursor() != 1 {
		t.Fatalf("the cursor moved off the chat it was on: row %d", d.List().Cursor())
	}
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter}))
	if m.cur.chatID != deploy.ChatID {
		t.Fatalf("enter opened %s, not the chat under the cursor", m.cur.chatID)
	}
}
