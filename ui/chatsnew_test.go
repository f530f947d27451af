package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/dialog"
)

// openChats opens the chat list and reads it.
func openChats(m *model) string {
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyCtrlO}))
	return frameOf(m)
}

// The new chat is the list's top row when the screen is on it or text
// typed in it waits there, so that text can be found: the row shows the
// start of the text, the count agrees with the rows, and enter opens it.
func TestTheNewChatsDraftIsTheTopRow(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m, ctx := k.m, context.Background()
	trip := k.ask("Plan a trip")
	if err := k.svc.SaveComposerDraft(ctx, "", "a note for later"); err != nil {
		t.Fatal(err)
	}
	k.load(trip.ChatID)
	v := openChats(m)
	lines := strings.Split(v, "\n")
	if !strings.Contains(lines[0], "(2 chats)") || !strings.Contains(lines[2], "new chat · draft: a note for later") ||
		!strings.Contains(lines[3], "Plan a trip") || !strings.HasPrefix(lines[3], "›") {
		t.Fatalf("the new chat's draft is not the top row, the cursor on the chat on screen:\n%s", v)
	}
	// The new chat's row is neither archived nor deleted.
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyUp}))
	if v := frameOf(m); strings.Contains(v, "a archive") || strings.Contains(v, "d delete") {
		t.Fatalf("archive and delete offered on the new chat:\n%s", v)
	}
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}))
	if v := frameOf(m); !strings.Contains(v, "The new chat is not started yet") {
		t.Fatalf("d on the new chat says nothing:\n%s", v)
	}
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyEnter}))
	if !m.cur.newChat || m.composer.Value() != "a note for later" {
		t.Fatalf("enter on the draft row: new chat %v, composer %q", m.cur.newChat, m.composer.Value())
	}

	// On the new chat, after n: its row is there, on screen, counted.
	k.load(trip.ChatID)
	m.cur.newChat = false
	openChats(m)
	deliver(m, m.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}))
	m.composer.SetValue("")
	v = openChats(m)
	lines = strings.Split(v, "\n")
	if !strings.Contains(lines[0], "(2 chats)") || !strings.Contains(lines[2], "new chat · on screen") {
		t.Fatalf("after n the list does not show the new chat on screen:\n%s", v)
	}
}

// With no new chat on screen and no text waiting in one, there is no such
// row: the count is of the chats.
func TestNoNewChatRowWithoutOne(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	trip := k.ask("Plan a trip")
	k.load(trip.ChatID)
	if v := openChats(k.m); strings.Contains(v, "new chat") || !strings.Contains(v, "(1 chat)") {
		t.Fatalf("a new chat row with none:\n%s", v)
	}
}

// The list's key hint fits its width: whole hints, the most needed first.
func TestChatListHintFitsTheWidth(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	trip := k.ask("Plan a trip")
	k.load(trip.ChatID)
	k.m.Update(tea.WindowSizeMsg{Width: 50, Height: 15})
	head := strings.Split(openChats(k.m), "\n")[0]
	if strings.Contains(head, "…") || !strings.Contains(head, "enter open · esc close") {
		t.Fatalf("the hint is cut at 50 columns: %q", head)
	}
}

// A list that cannot be read says why, in words, the code after them.
func TestAnUnreadableChatListSaysWhy(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	m := k.m
	openChats(m)
	deliver(m, m.update(dialog.ChatsRead{Err: &chat.Error{Code: chat.CodeDatabaseCorrupt, Message: "the database file is damaged"}}))
	v := frameOf(m)
	if !containsAll(v, "Could not read the chats: the database file is damaged. DATABASE_CORRUPT") || strings.Contains(v, "no chats yet") {
		t.Fatalf("the list does not say why it is empty:\n%s", v)
	}
}
