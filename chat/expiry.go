package chat

import (
	"context"
	"slices"
	"time"

	"followup/store"
)

// expireRequest expires a pending request for reason and tells its run
// with an input_expired delivery.
func (s *Service) expireRequest(ctx context.Context, tx *txn, r *store.Request, reason string) error {
	if err := s.closeRequest(ctx, tx, r, store.ReqExpired, reason); err != nil {
		return err
	}
	payload := mustJSON(map[string]any{"status": "input_expired", "requestId": r.ID, "reason": reason})
	return s.recordDelivery(ctx, tx, *r, store.DeliveryExpire, store.DeliveryPending, payload)
}

// Deadlines (docs/behaviour.md: nothing times out silently). A request past its
// deadline is expired, and its run told, by whatever next reads or changes
// requests in this database: every command and every read of requests
// starts with expireDue, so no caller has to remember it. A look at the
// index of deadlines comes first: usually nothing is due, and then reads
// take no write lock.

// expireDue expires the pending requests whose deadline has passed and
// tells their runs, after ending the serve sessions whose process has died
// (sessions.go).
func (s *Service) expireDue(ctx context.Context) error {
	// One look says which of the three can have anything to do.
	now := s.nowMS()
	look, err := s.store.Look(ctx, s.reader(), now)
	if err != nil {
		return err
	}
	if len(look.Sessions) > 0 {
		if err := s.expireDisconnected(ctx, look.Sessions); err != nil {
			return err
		}
	}
	if look.Classic {
		if err := s.expireOrphanedElicitations(ctx); err != nil { // elicit.go
			return err
		}
	}
	if !look.Due {
		return nil
	}
	return s.expireWhere(ctx, store.ReasonDeadline, func(tx *txn) ([]store.Request, error) {
		return s.store.DueRequests(ctx, tx, now)
	})
}

// anyDue reports whether any of rs is pending past its deadline: the
// screen's read checks what it read instead of looking again.
func (s *Service) anyDue(rs []RequestView) bool {
	now := s.now()
	return slices.ContainsFunc(rs, func(r RequestView) bool {
		return r.State == store.ReqPending && r.ExpiresAt != nil && !r.ExpiresAt.After(now)
	})
}

// expireWhere expires, in one transaction, the pending requests that find
// returns, each with reason and a delivery telling its run, and then
// announces them.
func (s *Service) expireWhere(ctx context.Context, reason string, find func(tx *txn) ([]store.Request, error)) error {
	return s.write(ctx, func(tx *txn) error {
		rs, err := find(tx)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := s.expireRequest(ctx, tx, &r, reason); err != nil {
				return err
			}
		}
		return nil
	})
}

// DeadlineWords says when a deadline falls, in local time: its time when
// it is today ("17:05"), else its date too ("Dec 3 00:12"), and its year
// when that is not now's. The screen and the CLI word deadlines with it.
func DeadlineWords(at, now time.Time) string {
	at, now = at.Local(), now.Local()
	switch y, m, d := at.Date(); {
	case y == now.Year() && m == now.Month() && d == now.Day():
		return at.Format("15:04")
	case y == now.Year():
		return at.Format("Jan 2 15:04")
	}
	return at.Format("Jan 2 2006 15:04")
}
