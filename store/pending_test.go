package store

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestPendingItemsPlan: the list of every chat reads the items in seq
// order without sorting them and finds archived chats through their
// index; one chat's list reads its own rows through its index.
func TestPendingItemsPlan(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{pendingItemsAll, []string{"SCAN pending_items", "INDEX chats_state_updated (state=?)"}},
		{strings.Replace(pendingItemsOfChat, "?", "'c'", 1), []string{"SEARCH pending_items USING INDEX pending_items_chat (chat_id=?)"}},
	} {
		all := strings.Join(queryPlan(t, s.Reader(), tc.query), " / ")
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("plan of %q lacks %q: %s", tc.query, w, all)
			}
		}
		if strings.Contains(all, "TEMP B-TREE") || strings.Contains(all, "SCAN chats") && !strings.Contains(all, "INDEX") {
			t.Errorf("plan of %q sorts or reads every chat: %s", tc.query, all)
		}
	}
}

// TestPendingItemRows: items are written, rewritten and removed by
// request, listed in seq order without archived chats (unless asked for
// by chat), and go with their chat when it is deleted.
func TestPendingItemRows(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	list := func(chatID string) []string {
		t.Helper()
		got, err := qs.PendingItemJSON(ctx, s.Reader(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	err := s.Write(ctx, func(tx Handle) error {
		for _, c := range []string{"ch_a", "ch_b"} {
			if err := qs.InsertChat(ctx, tx, Chat{ID: c, Title: c, State: ChatActive}); err != nil {
				return err
			}
		}
		var items []PendingItem
		for _, r := range []struct{ id, chat string }{{"rq_1", "ch_a"}, {"rq_2", "ch_b"}, {"rq_3", "ch_a"}} {
			req, err := qs.InsertRequest(ctx, tx, Request{ID: r.id, ChatID: r.chat, RequestKey: r.id, State: ReqPending, Revision: 1, Digest: "d"})
			if err != nil {
				return err
			}
			items = append(items, PendingItem{Seq: req.Seq, RequestID: r.id, ChatID: r.chat, Item: `{"id":"` + r.id + `"}`})
		}
		// Written newest first: the list still follows seq.
		for i := len(items) - 1; i >= 0; i-- {
			if err := qs.PutPendingItem(ctx, tx, items[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := list(""); !reflect.DeepEqual(got, []string{`{"id":"rq_1"}`, `{"id":"rq_2"}`, `{"id":"rq_3"}`}) {
		t.Fatalf("all = %v", got)
	}
	err = s.Write(ctx, func(tx Handle) error {
		if err := qs.PutPendingItem(ctx, tx, PendingItem{Seq: 1, RequestID: "rq_1", ChatID: "ch_a", Item: `{"id":"rq_1","revision":2}`}); err != nil {
			return err
		}
		if err := qs.DeletePendingItem(ctx, tx, "rq_3"); err != nil {
			return err
		}
		return qs.SetChatState(ctx, tx, "ch_b", ChatArchived, 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := list(""); !reflect.DeepEqual(got, []string{`{"id":"rq_1","revision":2}`}) {
		t.Fatalf("after rewrite, delete and archive: %v", got)
	}
	if got := list("ch_b"); !reflect.DeepEqual(got, []string{`{"id":"rq_2"}`}) {
		t.Fatalf("the archived chat = %v", got)
	}
	if err := s.Write(ctx, func(tx Handle) error { return qs.DeleteChat(ctx, tx, "ch_a") }); err != nil {
		t.Fatal(err)
	}
	all, err := qs.PendingItems(ctx, s.Reader())
	if err != nil || len(all) != 1 || all[0].RequestID != "rq_2" {
		t.Fatalf("after deleting a chat: %+v, %v", all, err)
	}
	// A write that knows nothing of the list (a process from before it)
	// still takes a closed request's entry away.
	if err := s.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, `UPDATE requests SET state = 'answered' WHERE id = 'rq_2'`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := list("ch_b"); len(got) != 0 {
		t.Fatalf("an answered request is still listed: %v", got)
	}
}

// TestPendingItemsStaleMarker: a new database asks once for its items to
// be built (the migration's marker); clearing and marking work.
func TestPendingItemsStaleMarker(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	stale := func() bool {
		t.Helper()
		v, err := qs.PendingItemsStale(ctx, s.Reader())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if !stale() {
		t.Fatal("a migrated database is not marked")
	}
	for _, step := range []struct {
		do   func(tx Handle) error
		want bool
	}{
		{func(tx Handle) error { return qs.ClearPendingItemsStale(ctx, tx) }, false},
		{func(tx Handle) error { return qs.MarkPendingItemsStale(ctx, tx) }, true},
		{func(tx Handle) error { return qs.MarkPendingItemsStale(ctx, tx) }, true},
		{func(tx Handle) error { return qs.ClearPendingItemsStale(ctx, tx) }, false},
	} {
		if err := s.Write(ctx, step.do); err != nil {
			t.Fatal(err)
		}
		if got := stale(); got != step.want {
			t.Fatalf("stale = %v, want %v", got, step.want)
		}
	}
}
