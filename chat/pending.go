package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"

	"followup/store"
)

// The pending list is materialised: each pending request has its item (its
// RequestItem, encoded) stored beside it. The store writes it with every
// write of the request, in the same transaction, and each write needs it:
// createRequest, saveRequest and saveRevision below build it. Listing what
// waits for an answer then reads a few adjacent pages and copies the
// stored objects out, instead of reading and decoding every pending
// request's revision and encoding it again. Deleting a chat deletes its
// requests and, by cascade, their items; archiving one leaves them, and the
// list of every chat reads only active chats'.

// createRequest inserts a new request at its first revision, with its item
// while it is pending.
func (s *Service) createRequest(ctx context.Context, tx store.Handle, r store.Request, rev store.Revision) (store.Request, error) {
	if err := s.stampOrigin(ctx, tx, &r); err != nil {
		return r, err
	}
	rd, err := decodeRevision(rev)
	if err != nil {
		return r, err
	}
	item, err := pendingItem(r, rd)
	if err != nil {
		return r, err
	}
	return s.store.InsertRequest(ctx, tx, r, rev, item)
}

// saveRequest writes a request's mutable columns, with its item while it
// is pending. rd is the request's current revision when the caller has it
// decoded (as stored), else nil.
func (s *Service) saveRequest(ctx context.Context, tx store.Handle, r store.Request, rd *revisionData) error {
	if r.State == store.ReqPending && rd == nil {
		loaded, err := s.loadRevision(ctx, tx, r.ID, r.Revision)
		if err != nil {
			return err
		}
		rd = &loaded
	}
	item, err := pendingItemOf(r, rd)
	if err != nil {
		return err
	}
	return s.store.UpdateRequest(ctx, tx, r, item)
}

// saveRevision records rev as the new current revision of r (r.Revision
// and r.Digest already name it) and saves r.
func (s *Service) saveRevision(ctx context.Context, tx store.Handle, r store.Request, rev store.Revision) error {
	rd, err := decodeRevision(rev)
	if err != nil {
		return err
	}
	item, err := pendingItemOf(r, &rd)
	if err != nil {
		return err
	}
	return s.store.ReviseRequest(ctx, tx, r, rev, item)
}

// pendingItemOf is r's item while it is pending, else "".
func pendingItemOf(r store.Request, rd *revisionData) (string, error) {
	if r.State != store.ReqPending {
		return "", nil
	}
	return pendingItem(r, *rd)
}

// pendingItem encodes r's entry of the pending list.
func pendingItem(r store.Request, rd revisionData) (string, error) {
	b, err := json.Marshal(buildItem(r, rd))
	return string(b), err
}

// fillPendingItems rebuilds every pending item when the database asks for
// it: once after the upgrade that added them (the requests already pending
// had none), or after a bulk load that wrote requests without this
// package. Other opens pay one small read.
func (s *Service) fillPendingItems(ctx context.Context) error {
	if stale, err := s.store.PendingItemsStale(ctx, s.reader()); err != nil || !stale {
		return err
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		// Another process may have filled them since the look above.
		if stale, err := s.store.PendingItemsStale(ctx, tx); err != nil || !stale {
			return err
		}
		rs, vs, err := s.store.ListRequestsWithRevisions(ctx, tx, store.RequestFilter{State: store.ReqPending})
		if err != nil {
			return err
		}
		decoded := map[string]revisionData{}
		items := make([]store.PendingItem, len(rs))
		for i, r := range rs {
			rd, ok := decoded[vs[i].Digest]
			if !ok {
				if rd, err = decodeRevision(vs[i]); err != nil {
					return err
				}
				decoded[vs[i].Digest] = rd
			}
			item, err := pendingItem(r, rd)
			if err != nil {
				return err
			}
			items[i] = store.PendingItem{Seq: r.Seq, RequestID: r.ID, ChatID: r.ChatID, Item: item}
		}
		return s.store.RefillPendingItems(ctx, tx, items)
	})
}

// PendingList is the stored pending list: one encoded RequestItem per open
// request, in creation order, with the proposals that wait for the user on
// it (kept beside the item: a proposal changes without the request).
type PendingList struct {
	items []store.PendingItem
	// proposals are the undecided proposals, by request id.
	proposals map[string][]store.Proposal
	// Approvals are the pending MCP tool approvals of the same chats.
	Approvals []ApprovalView
}

// PendingItems reads the pending list of one chat, or of every active chat
// when chatID is "" (archived chats are left out: their questions can no
// longer be answered). It is the list Pending returns, without the
// answers, deliveries and proposals that only full views carry, and
// without decoding anything.
func (s *Service) PendingItems(ctx context.Context, chatID string) (PendingList, error) {
	if err := s.expireDue(ctx); err != nil {
		return PendingList{}, err
	}
	items, err := s.store.PendingItemJSON(ctx, s.reader(), chatID)
	if err != nil {
		return PendingList{}, err
	}
	props, err := s.store.PendingListProposals(ctx, s.reader(), chatID)
	if err != nil {
		return PendingList{}, err
	}
	aps, err := s.PendingApprovals(ctx, chatID)
	if err == nil && len(items) == 0 && len(aps) == 0 && chatID != "" {
		// Nothing pending, or no such chat: a mistyped id is NOT_FOUND.
		if _, err = s.store.GetChat(ctx, s.reader(), chatID); err != nil {
			err = notFound(err, "chat", chatID)
		}
	}
	return PendingList{items, props, aps}, err
}

// Len is the number of open requests in the list.
func (l PendingList) Len() int { return len(l.items) }

// WriteTo writes the list as the `pending --json` document,
// {"ok":true,"requests":[…],"approvals":[…]}, by copying the stored
// objects out; an entry with proposals waiting gets them as "proposals",
// as in every other view of a request.
func (l PendingList) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var n int64
	put := func(s string) {
		m, _ := bw.WriteString(s)
		n += int64(m)
	}
	put(`{"ok":true,"requests":[`)
	for i, it := range l.items {
		if i > 0 {
			put(",")
		}
		// An entry with proposals waiting is written in pieces: joining
		// them would copy the entry once more.
		if ps := l.proposals[it.RequestID]; len(ps) > 0 && strings.HasSuffix(it.Item, "}") {
			put(it.Item[:len(it.Item)-1])
			put(`,"proposals":`)
			put(mustJSON(proposalViews(ps)))
			put("}")
			continue
		}
		put(it.Item)
	}
	aps := l.Approvals
	if aps == nil {
		aps = []ApprovalView{}
	}
	put(`],"approvals":` + mustJSON(aps) + "}")
	return n, bw.Flush()
}
