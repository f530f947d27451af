package chat

import (
	"context"
	"testing"
	"time"
)

// TestArchiveKeepsPlaceAndUnarchives: archiving keeps a chat where it was
// in the list, takes its question out of the pending list across chats and
// of what waits elsewhere, and refuses model operations; unarchiving (a
// command with its receipt, like archiving) brings all of it back, in the
// same place.
func TestArchiveKeepsPlaceAndUnarchives(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFxClock()
	s := fxOpen(t, clock)
	var ids []string // oldest first
	var reqs []string
	for range 3 {
		sent, req := fxDeploy(t, s)
		ids, reqs = append(ids, sent.ChatID), append(reqs, req.ID)
		clock.Advance(time.Minute)
	}
	newest, middle, oldest := ids[2], ids[1], ids[0]
	order := func() []string {
		t.Helper()
		page, err := s.ChatList(ctx, "", 0)
		cs := page.Chats
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	check := func(when string, wantPending []string, elsewhere int) {
		t.Helper()
		if got := order(); len(got) != 3 || got[0] != newest || got[1] != middle || got[2] != oldest {
			t.Fatalf("%s: list order %v", when, got)
		}
		pend, err := s.Pending(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range pend {
			got = append(got, r.ID)
		}
		if len(got) != len(wantPending) {
			t.Fatalf("%s: pending %v, want %v", when, got, wantPending)
		}
		for i := range got {
			if got[i] != wantPending[i] {
				t.Fatalf("%s: pending %v, want %v", when, got, wantPending)
			}
		}
		if list, _ := s.PendingItems(ctx, ""); list.Len() != len(wantPending) {
			t.Fatalf("%s: stored pending list has %d", when, list.Len())
		}
		if n, _ := s.PendingElsewhere(ctx, newest); n != elsewhere {
			t.Fatalf("%s: %d waiting elsewhere, want %d", when, n, elsewhere)
		}
	}
	before, _ := s.Chat(ctx, middle)
	clock.Advance(time.Hour)

	v, err := s.Archive(ctx, middle, "cmd-archive")
	if err != nil || v.State != "archived" || !v.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("archive: %+v, %v (updated before %v)", v, err, before.UpdatedAt)
	}
	check("archived", []string{reqs[0], reqs[2]}, 1)
	if _, err := s.Send(ctx, middle, "go on", ""); CodeOf(err) != CodeChatArchived {
		t.Fatalf("a message to an archived chat: %v", err)
	}
	if c, _ := s.ChatList(ctx, "", 0); c.Chats[1].Pending != 0 {
		t.Fatalf("the archived chat counts %d open questions", c.Chats[1].Pending)
	}

	v, err = s.Unarchive(ctx, middle, "cmd-unarchive")
	if err != nil || v.State != "active" || !v.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("unarchive: %+v, %v", v, err)
	}
	check("unarchived", []string{reqs[0], reqs[1], reqs[2]}, 2)
	if _, err := s.Unarchive(ctx, middle, "cmd-unarchive"); err != nil {
		t.Fatalf("repeating the command: %v", err)
	}
	if _, err := s.Unarchive(ctx, oldest, "cmd-unarchive"); CodeOf(err) != CodeCommandIDConfl {
		t.Fatalf("the command id reused for another chat: %v", err)
	}
	if _, err := s.Archive(ctx, middle, "cmd-unarchive"); CodeOf(err) != CodeCommandIDConfl {
		t.Fatalf("the command id reused for another command: %v", err)
	}
	if _, err := s.Unarchive(ctx, "ch_missing", ""); CodeOf(err) != CodeNotFound {
		t.Fatalf("unarchiving a missing chat: %v", err)
	}
	if _, err := s.Send(ctx, middle, "go on", ""); err != nil {
		t.Fatalf("a message to the unarchived chat: %v", err)
	}
}
