package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"followup/store"
)

// checkPendingItems compares the stored pending list with the requests:
// every pending request (of any chat) has exactly one item, with its seq
// and chat, equal byte for byte to the item computed afresh by the full
// view code, and the encoding of its full view starts with those same
// bytes; no other request has an item.
func checkPendingItems(ctx context.Context, s *Service) error {
	var problems []string
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		rs, vs, err := s.store.ListRequestsWithRevisions(ctx, tx, store.RequestFilter{State: store.ReqPending})
		if err != nil {
			return err
		}
		revs := map[string]store.Revision{}
		for _, v := range vs {
			revs[v.RequestID] = v
		}
		views, err := s.views(ctx, tx, rs, revs)
		if err != nil {
			return err
		}
		stored, err := storedItems(ctx, tx)
		if err != nil {
			return err
		}
		byID := map[string]store.PendingItem{}
		for _, p := range stored {
			byID[p.RequestID] = p
		}
		for i, v := range views {
			p, ok := byID[v.ID]
			delete(byID, v.ID)
			if !ok {
				problems = append(problems, fmt.Sprintf("pending request %s has no item", v.ID))
				continue
			}
			want, err := json.Marshal(v.RequestItem)
			if err != nil {
				return err
			}
			if p.Item != string(want) {
				problems = append(problems, fmt.Sprintf("request %s: stored item\n  %s\nwant\n  %s", v.ID, p.Item, want))
			}
			if p.Seq != rs[i].Seq || p.ChatID != rs[i].ChatID {
				problems = append(problems, fmt.Sprintf("request %s: item at seq %d chat %s, request at seq %d chat %s",
					v.ID, p.Seq, p.ChatID, rs[i].Seq, rs[i].ChatID))
			}
			full, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if !bytes.HasPrefix(full, want[:len(want)-1]) {
				problems = append(problems, fmt.Sprintf("request %s: the full view does not start with the item:\n  %s", v.ID, full))
			}
		}
		for id := range byID {
			r, err := s.store.GetRequest(ctx, tx, id)
			state := r.State
			if err != nil {
				state = err.Error()
			}
			problems = append(problems, fmt.Sprintf("request %s (%s) has an item but is not pending", id, state))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("the pending list is out of step:\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// fxCheckItems fails the test unless the stored pending list matches the
// requests (checkPendingItems).
func fxCheckItems(t *testing.T, s *Service) {
	t.Helper()
	if err := checkPendingItems(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// fxCheckItemsAtEnd checks the pending list when the test ends, while s is
// still open: register it after the cleanup that closes s.
func fxCheckItemsAtEnd(t *testing.T, s *Service) {
	t.Cleanup(func() {
		if err := checkPendingItems(context.Background(), s); err != nil {
			t.Errorf("at the end of the test: %v", err)
		}
	})
}

// storedItems reads every stored pending item, in request creation order.
func storedItems(ctx context.Context, h store.Handle) ([]store.PendingItem, error) {
	rows, err := h.QueryContext(ctx, `SELECT seq, request_id, chat_id, item FROM pending_items ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.PendingItem
	for rows.Next() {
		var p store.PendingItem
		if err := rows.Scan(&p.Seq, &p.RequestID, &p.ChatID, &p.Item); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
