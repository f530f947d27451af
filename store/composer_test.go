package store

import (
	"context"
	"testing"
)

// TestComposerDrafts: a chat's composer text is saved, replaced and
// deleted by an empty save; the new chat's ("") is its own; deleting a chat
// deletes its draft.
func TestComposerDrafts(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	get := func(chatID string) string {
		t.Helper()
		text, err := qs.GetComposerDraft(ctx, s.Reader(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	put := func(chatID, text string) {
		t.Helper()
		if err := s.Write(ctx, func(tx Handle) error { return qs.PutComposerDraft(ctx, tx, chatID, text, 1) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Write(ctx, func(tx Handle) error { return qs.InsertChat(ctx, tx, Chat{ID: "ch_a", Title: "a", State: ChatActive}) }); err != nil {
		t.Fatal(err)
	}
	put("ch_a", "half a thought")
	put("", "a new chat's first words")
	put("ch_a", "half a thought, more")
	put("ch_a", "half a thought, more")
	if get("ch_a") != "half a thought, more" || get("") != "a new chat's first words" {
		t.Fatalf("drafts %q, %q", get("ch_a"), get(""))
	}
	put("", "")
	if get("") != "" {
		t.Fatal("an empty save kept the draft")
	}
	if err := s.Write(ctx, func(tx Handle) error { return qs.DeleteChat(ctx, tx, "ch_a") }); err != nil {
		t.Fatal(err)
	}
	var n int
	s.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM composer_drafts`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d drafts left after deleting their chat", n)
	}
}
