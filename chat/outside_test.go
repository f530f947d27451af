package chat

import (
	"context"
	"reflect"
	"testing"
)

// What a screen reads of the questions waiting elsewhere is bounded: the
// oldest few of other active chats, then the newest; never its own chat's,
// never an archived chat's.
func TestPendingOutsideIsBounded(t *testing.T) {
	s := fxOpen(t, nil)
	ctx := context.Background()
	here, _ := fxDeploy(t, s)
	var ids []string
	var chats []string
	for range 5 {
		sent, r := fxDeploy(t, s)
		ids, chats = append(ids, r.ID), append(chats, sent.ChatID)
	}
	if _, err := s.Archive(ctx, chats[1], ""); err != nil {
		t.Fatal(err)
	}
	want := []string{ids[0], ids[2], ids[4]} // limit 2: the two oldest, then the newest
	got, err := s.PendingOutside(ctx, here.ChatID, 2)
	if err != nil {
		t.Fatal(err)
	}
	var gotIDs []string
	for _, it := range got {
		gotIDs = append(gotIDs, it.ID)
		if it.Title == "" || it.ChatID == here.ChatID {
			t.Errorf("item %+v", it)
		}
	}
	if len(gotIDs) != len(want) || gotIDs[0] != want[0] || gotIDs[1] != want[1] || gotIDs[2] != want[2] {
		t.Fatalf("PendingOutside = %v, want %v", gotIDs, want)
	}
	// Each is the head of the request's view.
	views, err := s.Pending(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	heads := map[string]RequestItem{}
	for _, v := range views {
		heads[v.ID] = RequestItem{ID: v.ID, Digest: v.Digest, ChatID: v.ChatID, RunID: v.RunID, State: v.State, Revision: v.Revision,
			Title: v.Title, Owner: v.Owner, Mode: v.Mode, ExpiresAt: v.ExpiresAt, CreatedAt: v.CreatedAt}
	}
	for _, it := range got {
		if !reflect.DeepEqual(it, heads[it.ID]) {
			t.Errorf("item %+v\nwant the view's head %+v", it, heads[it.ID])
		}
	}
	if all, _ := s.PendingOutside(ctx, here.ChatID, 10); len(all) != 4 {
		t.Errorf("limit 10: %d items, want the 4 of active chats", len(all))
	}
}
