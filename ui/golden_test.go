package ui

import (
	"context"
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"followup/chat"
	"followup/ui/dialog"
)

// The whole chat screen, pinned at a few sizes (no colour, a fixed clock,
// a fixed database name in the status line).
func TestGoldenScreens(t *testing.T) {
	t.Parallel()
	sizes := []struct{ w, h int }{{100, 30}, {60, 20}, {50, 15}}
	for _, sc := range []struct {
		name  string
		setup func(k *kit)
	}{
		{"start", func(k *kit) {}},
		{"deploy_form", func(k *kit) {
			k.load(k.ask("Check deployment").ChatID)
			k.m.setFocus(focusForm)
		}},
		{"deploy_waiting", func(k *kit) {
			k.load(k.ask("Check deployment").ChatID)
		}},
		{"trip_form", func(k *kit) {
			k.load(k.ask("Plan a trip").ChatID)
			k.m.setFocus(focusForm)
		}},
		{"review", func(k *kit) {
			k.load(k.ask("Check deployment").ChatID)
			k.m.setFocus(focusForm)
			k.m.Update(tea.KeyMsg{Type: tea.KeyDown}) // staging
			k.m.openReview()
		}},
		{"proposal", func(k *kit) {
			sent := k.ask("Check deployment")
			k.say(sent.ChatID, "use staging")
			k.load(sent.ChatID)
		}},
		{"two_questions", func(k *kit) {
			sent := k.ask("Check deployment")
			k.say(sent.ChatID, "and plan a trip")
			k.load(sent.ChatID)
		}},
		{"cancel_confirm", func(k *kit) {
			k.load(k.ask("Check deployment").ChatID)
			k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlX})
		}},
		{"help", func(k *kit) { k.m.Update(tea.KeyMsg{Type: tea.KeyF1}) }},
		{"chats", func(k *kit) {
			k.ask("Check deployment")
			k.load(k.ask("Plan a trip").ChatID)
			k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
			k.m.Update(listChats(k.svc, "", dialog.ChatPage(k.m.height))())
		}},
		{"chats_new_draft", func(k *kit) {
			k.load(k.ask("Plan a trip").ChatID)
			if err := k.svc.SaveComposerDraft(context.Background(), "", "ask about the budget"); err != nil {
				k.t.Fatal(err)
			}
			k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
			k.m.Update(listChats(k.svc, "", dialog.ChatPage(k.m.height))())
		}},
		{"trip_problem_above", func(k *kit) {
			k.load(k.ask("Plan a trip").ChatID)
			k.m.setFocus(focusForm)
			deliver(k.m, k.m.pane.live.Edit("start"))
			k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2025-13-40")})
			deliver(k.m, k.m.updateForm(tea.KeyMsg{Type: tea.KeyTab}))
			deliver(k.m, k.m.updateForm(tea.KeyMsg{Type: tea.KeyTab}))
		}},
		{"unread", func(k *kit) {
			k.m.Update(snapshotMsg{err: &chat.Error{Code: chat.CodeDatabaseCorrupt, Message: "the database file is damaged"}, errWhat: readingChat})
			k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("typed meanwhile")})
		}},
		{"too_small", func(k *kit) { k.load(k.ask("Check deployment").ChatID) }},
	} {
		sizes := sizes
		if sc.name == "too_small" {
			sizes = []struct{ w, h int }{{40, 12}}
		}
		for _, size := range sizes {
			name := fmt.Sprintf("%s_%dx%d", sc.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				k := newKit(t, withClock)
				k.m.start.dbPath = "followup.db"
				k.m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
				if sc.name == "start" {
					k.load("")
				}
				sc.setup(k)
				golden.RequireEqual(t, []byte(frameOf(k.m)))
			})
		}
	}
}
