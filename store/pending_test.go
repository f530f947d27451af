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

// TestRequestWritesKeepTheirItem: each write of a request writes,
// rewrites or removes its pending-list entry in the same transaction; the
// list follows seq without archived chats (unless asked for by chat), and
// entries go with their chat when it is deleted.
func TestRequestWritesKeepTheirItem(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	list := func(chatID string) []string {
		t.Helper()
		got, err := qs.PendingItemJSON(ctx, s.Reader(), chatID)
		if err != nil {
			t.Fatal(err)
		}
		return itemTexts(t, got)
	}
	item := func(id string) string { return `{"id":"` + id + `"}` }
	reqs := map[string]Request{}
	err := s.Write(ctx, func(tx Handle) error {
		for _, c := range []string{"ch_a", "ch_b"} {
			if err := qs.InsertChat(ctx, tx, Chat{ID: c, Title: c, State: ChatActive}); err != nil {
				return err
			}
		}
		for _, r := range []struct{ id, chat string }{{"rq_1", "ch_a"}, {"rq_2", "ch_b"}, {"rq_3", "ch_a"}} {
			req, err := qs.InsertRequest(ctx, tx, Request{ID: r.id, ChatID: r.chat, RequestKey: r.id, State: ReqPending, Revision: 1, Digest: "d1"},
				Revision{Revision: 1, Digest: "d1", Definition: "{}"}, item(r.id))
			if err != nil {
				return err
			}
			reqs[r.id] = req
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := list(""); !reflect.DeepEqual(got, []string{item("rq_1"), item("rq_2"), item("rq_3")}) {
		t.Fatalf("all = %v", got)
	}
	err = s.Write(ctx, func(tx Handle) error {
		r1 := reqs["rq_1"]
		r1.Revision, r1.Digest = 2, "d2"
		if err := qs.ReviseRequest(ctx, tx, r1, Revision{RequestID: r1.ID, Revision: 2, Digest: "d2", Definition: "{}"},
			`{"id":"rq_1","revision":2}`); err != nil {
			return err
		}
		r3 := reqs["rq_3"]
		r3.State = ReqAnswered
		if err := qs.UpdateRequest(ctx, tx, r3, ""); err != nil {
			return err
		}
		return qs.SetChatState(ctx, tx, "ch_b", ChatArchived)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := list(""); !reflect.DeepEqual(got, []string{`{"id":"rq_1","revision":2}`}) {
		t.Fatalf("after a revision, an answer and an archive: %v", got)
	}
	if got := list("ch_b"); !reflect.DeepEqual(got, []string{item("rq_2")}) {
		t.Fatalf("the archived chat = %v", got)
	}
	if err := s.Write(ctx, func(tx Handle) error { return qs.DeleteChat(ctx, tx, "ch_a") }); err != nil {
		t.Fatal(err)
	}
	var all string
	if err := s.Reader().QueryRowContext(ctx, `SELECT group_concat(request_id) FROM pending_items`).Scan(&all); err != nil || all != "rq_2" {
		t.Fatalf("after deleting a chat: %s, %v", all, err)
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

// TestPendingRequestNeedsItsItem: a pending request cannot be written
// without its entry, nor revised with a revision it does not name; neither
// refusal writes anything.
func TestPendingRequestNeedsItsItem(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	var r Request
	err := s.Write(ctx, func(tx Handle) error {
		if err := qs.InsertChat(ctx, tx, Chat{ID: "ch_a", Title: "a", State: ChatActive}); err != nil {
			return err
		}
		var err error
		r, err = qs.InsertRequest(ctx, tx, Request{ID: "rq_1", ChatID: "ch_a", RequestKey: "k", State: ReqPending, Revision: 1, Digest: "d1"},
			Revision{Revision: 1, Digest: "d1", Definition: "{}"}, `{"id":"rq_1"}`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(tx Handle) error{
		"insert": func(tx Handle) error {
			_, err := qs.InsertRequest(ctx, tx, Request{ID: "rq_2", ChatID: "ch_a", RequestKey: "k2", State: ReqPending, Revision: 1, Digest: "d"},
				Revision{Revision: 1, Digest: "d", Definition: "{}"}, "")
			return err
		},
		"update": func(tx Handle) error { return qs.UpdateRequest(ctx, tx, r, "") },
		"revise": func(tx Handle) error {
			next := r
			next.Revision, next.Digest = 2, "d2"
			return qs.ReviseRequest(ctx, tx, next, Revision{RequestID: r.ID, Revision: 3, Digest: "d3", Definition: "{}"}, `{"id":"rq_1"}`)
		},
	} {
		if err := s.Write(ctx, write); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if got, _ := qs.PendingItemJSON(ctx, s.Reader(), ""); !reflect.DeepEqual(itemTexts(t, got), []string{`{"id":"rq_1"}`}) {
		t.Fatalf("items = %v", got)
	}
	if vs, _ := qs.Revisions(ctx, s.Reader(), "rq_1"); len(vs) != 1 {
		t.Fatalf("revisions = %d", len(vs))
	}
}

// TestPendingItemsStaleMarker: a new database asks once for its items to
// be built (the migration's marker); a refill clears it and replaces every
// entry; marking works.
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
		{func(tx Handle) error { return qs.RefillPendingItems(ctx, tx, nil) }, false},
		{func(tx Handle) error { return qs.MarkPendingItemsStale(ctx, tx) }, true},
		{func(tx Handle) error { return qs.MarkPendingItemsStale(ctx, tx) }, true},
		{func(tx Handle) error { return qs.RefillPendingItems(ctx, tx, nil) }, false},
	} {
		if err := s.Write(ctx, step.do); err != nil {
			t.Fatal(err)
		}
		if got := stale(); got != step.want {
			t.Fatalf("stale = %v, want %v", got, step.want)
		}
	}
}

// itemTexts is the items' JSON, each checked to come with its own
// request's id.
func itemTexts(t *testing.T, ps []PendingItem) []string {
	t.Helper()
	var out []string
	for _, p := range ps {
		if !strings.HasPrefix(p.Item, `{"id":"`+p.RequestID+`"`) {
			t.Errorf("item %s comes with request id %q", p.Item, p.RequestID)
		}
		out = append(out, p.Item)
	}
	return out
}
