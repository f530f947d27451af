package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// On a narrow screen the chat list gives the titles the room: the marks
// go compact in every row (a legend says what they mean) rather than cut
// "Plan a trip to Lisbon…" short, and the delete prompt is not cut off
// the row.
func TestChatListTitlesKeepTheRoom(t *testing.T) {
	t.Parallel()
	const title = "Plan a trip to Lisbon for May"
	for _, w := range []int{50, 60} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			k := newKit(t, withClock)
			ctx := context.Background()
			k.ask("Check deployment")
			sent, err := k.svc.Send(ctx, "", title, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{"one", "two"} {
				decl, _ := json.Marshal(map[string]any{"requestKey": key, "source": map[string]any{"kind": "dynamic",
					"definition": map[string]any{"title": "Q " + key, "fields": []any{map[string]any{"name": "a", "type": "text"}}}}})
				if _, err := k.svc.OpenRequest(ctx, sent.RunID, "call_"+key, decl); err != nil {
					t.Fatal(err)
				}
			}
			k.load(sent.ChatID)
			k.m.Update(tea.WindowSizeMsg{Width: w, Height: 15})
			k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
			k.m.Update(listChats(k.svc, "", chat.DefaultChatPage)())
			v := frameOf(k.m)
			row := lineWith(v, title)
			if row == "" || !strings.Contains(row, "?2") || !strings.Contains(row, "(here)") {
				t.Fatalf("the title is cut, or its marks are not there:\n%s", v)
			}
			if !strings.Contains(lineWith(v, "Check deployment"), "?1") {
				t.Errorf("the other row's marks are not compact like the first's:\n%s", v)
			}
			if !strings.Contains(v, "?N: questions waiting") {
				t.Errorf("no legend says what the compact marks mean:\n%s", v)
			}
			k.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
			if v := frameOf(k.m); !strings.Contains(v, "press d again") {
				t.Errorf("the delete prompt is not drawn:\n%s", v)
			}
		})
	}
}

// On a wide screen the marks stay in words.
func TestChatListMarksInWordsWhenTheyFit(t *testing.T) {
	t.Parallel()
	k := newKit(t, withClock)
	k.load(k.ask("Check deployment").ChatID)
	k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
	k.m.Update(listChats(k.svc, "", chat.DefaultChatPage)())
	if row := lineWith(frameOf(k.m), "Check deployment"); !strings.Contains(row, "1 question waits · on screen") {
		t.Errorf("the marks are not in words on a wide screen: %q", row)
	}
}
