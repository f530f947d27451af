package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestChatListPages: paging through the list with any page size returns
// every chat once, most recently updated first, ties by id, however many
// share a time.
func TestChatListPages(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	var want []string
	err := s.Write(ctx, func(tx Handle) error {
		for i := range 23 {
			c := Chat{ID: fmt.Sprintf("ch_%02d", i), Title: "t", State: ChatActive, UpdatedAt: int64(100 - i/5)}
			if i%4 == 0 {
				c.State = ChatArchived
			}
			if err := qs.InsertChat(ctx, tx, c); err != nil {
				return err
			}
			want = append(want, c.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 2, 5, 7, 23, 50} {
		var got []string
		var cur ChatCursor
		for pages := 0; ; pages++ {
			cs, err := qs.ListChats(ctx, s.Reader(), cur, size)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				got = append(got, c.ID)
			}
			if len(cs) < size || pages > 30 {
				break
			}
			last := cs[len(cs)-1]
			cur = ChatCursor{UpdatedAt: last.UpdatedAt, ID: last.ID}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pages of %d: %v", size, got)
		}
	}
}

// The chat list's queries read the rows they return through their index,
// never every chat, and the pending counts read only the named chats'
// open requests: nothing is sorted in a temporary B-tree of all chats.
func TestChatListPlans(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	for _, tc := range []struct {
		query string
		want  string
	}{
		{strings.Replace(listChatsFirst, "?", "50", 1), "SCAN chats USING INDEX chats_updated"},
		{strings.NewReplacer("updated_at <= ?", "updated_at <= 5", "updated_at = ?", "updated_at = 5", "id <= ?", "id <= 'x'", "LIMIT ?", "LIMIT 50").Replace(listChatsAfter),
			"SEARCH chats USING INDEX chats_updated (updated_at<?)"},
		{pendingCounts("'a','b'"), "SEARCH requests USING COVERING INDEX requests_pending_chat (chat_id=?)"},
	} {
		plan := strings.Join(queryPlan(t, s.Reader(), tc.query), " / ")
		if !strings.Contains(plan, tc.want) || strings.Contains(plan, "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("plan of %s:\n  %s\nwant %s", tc.query, plan, tc.want)
		}
	}
}

// What waits in other chats is counted from the open requests' index with
// the archived chats looked up by state, never by listing every active
// chat.
func TestPendingOutsidePlan(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	plan := strings.Join(queryPlan(t, s.Reader(), strings.Replace(countPendingOutside, "?", "'x'", 1)), " / ")
	if !strings.Contains(plan, "requests_pending_chat") || !strings.Contains(plan, "chats_state_updated (state=?)") ||
		strings.Contains(plan, "TEMP B-TREE") {
		t.Fatalf("plan: %s", plan)
	}
}
