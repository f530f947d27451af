package chat

import (
	"context"

	"followup/store"
)

// expireRequest expires a pending request for reason and tells its run
// with an input_expired delivery.
func (s *Service) expireRequest(ctx context.Context, tx store.Handle, r *store.Request, reason string) error {
	if err := s.closeRequest(ctx, tx, r, store.ReqExpired, reason); err != nil {
		return err
	}
	payload := mustJSON(map[string]any{"status": "input_expired", "requestId": r.ID, "reason": reason})
	return s.queueDelivery(ctx, tx, *r, store.DeliveryExpire, payload)
}

// Due reports whether any of rs is pending past its deadline: a screen
// showing them expires what is due (ExpireDue) and reads again.
func (s *Service) Due(rs []RequestView) bool {
	now := s.now()
	for _, r := range rs {
		if r.State == store.ReqPending && r.ExpiresAt != nil && !r.ExpiresAt.After(now) {
			return true
		}
	}
	return false
}

// ExpireDue expires pending requests whose deadline has passed and tells
// their runs; nothing times out silently.
func (s *Service) ExpireDue(ctx context.Context) error {
	now := s.nowMS()
	// Usually nothing is due: look first, so reads take no write lock.
	if due, err := s.store.DueRequests(ctx, s.reader(), now); err != nil || len(due) == 0 {
		return err
	}
	return s.expireWhere(ctx, store.ReasonDeadline, func(tx store.Handle) ([]store.Request, error) {
		return s.store.DueRequests(ctx, tx, now)
	})
}

// expireWhere expires, in one transaction, the pending requests that find
// returns, each with reason and a delivery telling its run, and then
// announces them.
func (s *Service) expireWhere(ctx context.Context, reason string, find func(tx store.Handle) ([]store.Request, error)) error {
	var expired []store.Request
	err := s.db.Write(ctx, func(tx store.Handle) error {
		expired = nil
		rs, err := find(tx)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := s.expireRequest(ctx, tx, &r, reason); err != nil {
				return err
			}
			expired = append(expired, r)
		}
		return nil
	})
	for _, r := range expired {
		s.broker.Publish(Event{Kind: EvRequest, ChatID: r.ChatID, RunID: r.RunID.String, RequestID: r.ID})
	}
	return err
}
