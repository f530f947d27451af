package ui

import (
	"testing"

	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// TestSwitchForgetsTheDrawing: the transcript drawn for a chat is dropped
// when the screen moves to another, so memory does not grow with the
// chats looked at.
func TestSwitchForgetsTheDrawing(t *testing.T) {
	k := newKit(t)
	m := k.m
	first := k.ask("Check deployment")
	second := k.ask("Plan a trip")
	m.Update(m.load(first.ChatID)())
	firstIDs := map[int64]bool{}
	for _, msg := range m.cur.messages {
		firstIDs[msg.ID] = true
	}
	if len(firstIDs) == 0 || len(m.tr.Cached()) == 0 {
		t.Fatalf("the first chat drew nothing: %d messages, %d entries", len(firstIDs), len(m.tr.Cached()))
	}
	for _, msg := range cmdtest.Run(m.do(dialog.OpenChat{ChatID: second.ChatID})) {
		m.Update(msg)
	}
	if m.cur.chatID != second.ChatID || len(m.tr.Cached()) == 0 {
		t.Fatalf("not on the second chat: %s, %d entries", m.cur.chatID, len(m.tr.Cached()))
	}
	for id := range m.tr.Cached() {
		if firstIDs[id] {
			t.Fatalf("entry %d of the chat left behind is still cached", id)
		}
	}
}
