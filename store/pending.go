package store

import "context"

// The pending list is materialised in pending_items: one finished JSON
// object per pending request, written in the transaction that changes the
// request. The store only keeps and reads the rows; what an item says is
// the caller's business (chat/ builds them).

// PendingItem is the stored pending-list entry of one request.
type PendingItem struct {
	Seq       int64 // the request's seq
	RequestID string
	ChatID    string
	Item      string // a JSON object
}

// syncPendingItem keeps a request's entry in step with the request just
// written: item while it is pending, none once it is not.
func syncPendingItem(ctx context.Context, h Handle, r Request, item string) error {
	if r.State != ReqPending {
		_, err := h.ExecContext(ctx, `DELETE FROM pending_items WHERE request_id = ?`, r.ID)
		return err
	}
	return putPendingItem(ctx, h, PendingItem{Seq: r.Seq, RequestID: r.ID, ChatID: r.ChatID, Item: item})
}

func putPendingItem(ctx context.Context, h Handle, p PendingItem) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO pending_items (seq, request_id, chat_id, item) VALUES (?, ?, ?, ?)
		 ON CONFLICT (seq) DO UPDATE SET request_id = excluded.request_id, chat_id = excluded.chat_id, item = excluded.item`,
		p.Seq, p.RequestID, p.ChatID, p.Item)
	return err
}

// RefillPendingItems replaces the whole pending list with items (one per
// pending request) and records that it is complete.
func (Queries) RefillPendingItems(ctx context.Context, h Handle, items []PendingItem) error {
	if _, err := h.ExecContext(ctx, `DELETE FROM pending_items`); err != nil {
		return err
	}
	for _, p := range items {
		if err := putPendingItem(ctx, h, p); err != nil {
			return err
		}
	}
	_, err := h.ExecContext(ctx, `DELETE FROM pending_items_stale`)
	return err
}

// The pending list of every active chat walks the table in seq order and
// skips the (few, indexed) archived chats, rather than gather rows chat by
// chat and sort them, or read every chat to learn which are active.
const (
	pendingItemsAll    = `SELECT request_id, item FROM pending_items WHERE ` + notArchived + ` ORDER BY seq`
	pendingItemsOfChat = `SELECT request_id, item FROM pending_items WHERE chat_id = ? ORDER BY seq`
)

// PendingItemJSON returns the stored items in request creation order: of
// one chat, or, when chatID is "", of every active chat (an archived chat's
// questions can no longer be answered). Each has its RequestID and Item.
func (Queries) PendingItemJSON(ctx context.Context, h Handle, chatID string) ([]PendingItem, error) {
	if chatID != "" {
		return pendingItemRows(ctx, h, pendingItemsOfChat, chatID)
	}
	return pendingItemRows(ctx, h, pendingItemsAll)
}

// pendingItemRows runs a query of (request_id, item) rows.
func pendingItemRows(ctx context.Context, h Handle, query string, args ...any) ([]PendingItem, error) {
	return queryAll(ctx, h, func(sc rowScanner) (p PendingItem, err error) {
		err = sc.Scan(&p.RequestID, &p.Item)
		return
	}, query, args...)
}

// PendingItemsStale reports whether the pending items must be rebuilt:
// migration 0005 asks for it for the requests that were pending before the
// table existed, and so can a bulk load that wrote requests directly.
func (Queries) PendingItemsStale(ctx context.Context, h Handle) (bool, error) {
	var stale bool
	err := h.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pending_items_stale)`).Scan(&stale)
	return stale, err
}

// MarkPendingItemsStale asks the next chat.Open to rebuild the pending
// items. Bulk loads that write requests without chat/ call it.
func (Queries) MarkPendingItemsStale(ctx context.Context, h Handle) error {
	_, err := h.ExecContext(ctx, `INSERT OR IGNORE INTO pending_items_stale (one) VALUES (1)`)
	return err
}
