package chat

import (
	"context"
	"testing"
	"time"
)

// TestChatListPagesThroughEveryChat: the chat list has no silent cap —
// following Next reads every chat once, newest first — and each page counts
// its active chats' open questions (not an archived chat's).
func TestChatListPagesThroughEveryChat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFxClock()
	s := fxOpen(t, clock)
	var want []string
	for range 7 {
		sent, _ := fxDeploy(t, s) // one open question each
		want = append([]string{sent.ChatID}, want...)
		clock.Advance(time.Second)
	}
	if _, err := s.Archive(ctx, want[0], ""); err != nil {
		t.Fatal(err)
	}
	var got []string
	after, pages := "", 0
	for {
		page, err := s.ChatList(ctx, after, 3)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, c := range page.Chats {
			got = append(got, c.ID)
			wantPending := 1
			if c.ID == want[0] {
				wantPending = 0
			}
			if c.Pending != wantPending {
				t.Errorf("%s (%s): %d open questions, want %d", c.ID, c.State, c.Pending, wantPending)
			}
		}
		if !page.More {
			if page.Next != "" {
				t.Fatalf("the last page has a next cursor %q", page.Next)
			}
			break
		}
		after = page.Next
	}
	if pages != 3 || len(got) != len(want) {
		t.Fatalf("%d pages, chats %v, want %v", pages, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("chats %v, want %v", got, want)
		}
	}
	if _, err := s.ChatList(ctx, "not-a-cursor", 3); CodeOf(err) != CodeInvalidArgument {
		t.Fatalf("a malformed cursor: %v", err)
	}
	for cursor, ok := range map[string]bool{"": true, "1764582600000.ch_1": true, "not-a-cursor": false, "x.ch_1": false, "17.": false} {
		if err := CheckChatCursor(cursor); (err == nil) != ok {
			t.Errorf("CheckChatCursor(%q) = %v", cursor, err)
		}
	}
	if page, err := s.ChatList(ctx, "", 0); err != nil || len(page.Chats) != len(want) {
		t.Fatalf("ChatList = %d, %v", len(page.Chats), err)
	}
}
