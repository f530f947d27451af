package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/dialog"
)

// Turning to a chat whose messages cannot be read leaves nothing of the
// chat left on screen: the failure is said in full where the transcript
// would be, with the chat's title, and the composer, the chat list and
// the screen all speak of that one chat, whose unsent text comes back.
func TestAFailedSwitchShowsTheChatTurnedTo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, okID, badID := damagedBeside(t, func(s *chat.Service) string {
		sent, err := s.Send(ctx, "", "hello", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Drive(ctx, sent.RunID); err != nil {
			t.Fatal(err)
		}
		return sent.ChatID
	}, func(s *chat.Service, damagedID string) {
		if err := s.SaveComposerDraft(ctx, damagedID, "my unsent words"); err != nil {
			t.Fatal(err)
		}
	})
	m := newModel(svc)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 24})
	deliver(m, loadChat(svc, okID, prep{}))
	if v := frameOf(m); !containsAll(v, "hello", "What should I work on?") {
		t.Fatalf("the intact chat is not on screen:\n%s", v)
	}
	deliver(m, m.do(dialog.OpenChat{ChatID: badID}))
	v := frameOf(m)
	if strings.Contains(v, "hello") || strings.Contains(v, "What should I work on?") || m.pane.live != nil {
		t.Fatalf("the chat left stays on screen:\n%s", v)
	}
	if !containsAll(v, "Could not read the chat “a long message", "DATABASE_CORRUPT", "is damaged") {
		t.Fatalf("the failure is not said in full, with the chat's title:\n%s", v)
	}
	if m.cur.chatID != badID {
		t.Fatalf("the screen is on %q, not the chat turned to", m.cur.chatID)
	}
	// Its unsent text, which the failed read would have brought, is read
	// alone: an autosave never writes over it with what is typed.
	if got := m.composer.Value(); got != "my unsent words" {
		t.Fatalf("the damaged chat's unsent text is %q", got)
	}
	// Back on the chat that reads, the failure is gone with the chat it
	// spoke of.
	deliver(m, m.do(dialog.OpenChat{ChatID: okID}))
	if v := frameOf(m); strings.Contains(v, "Could not read") || !containsAll(v, "hello", "What should I work on?") {
		t.Fatalf("back on the intact chat:\n%s", v)
	}
}
