package chat

import (
	"context"

	"followup/store"
)

// Cancel cancels one request (docs/behaviour.md): it becomes cancelled, the agent
// is told with an input_cancelled delivery, and the task goes on.
func (s *Service) Cancel(ctx context.Context, requestID, commandID string) (Receipt, error) {
	return s.cancel(ctx, requestID, commandID, false)
}

// cancel cancels a request. byAgent is the agent's own input_cancel: its
// tool result already tells it, so the delivery is recorded as delivered
// and the model is not told twice.
func (s *Service) cancel(ctx context.Context, requestID, commandID string, byAgent bool) (Receipt, error) {
	var chatID string
	return commandAs(s, ctx, commandID, "cancel", &chatID, map[string]any{"requestId": requestID}, func(tx *txn) (*Receipt, error) {
		r, _, err := s.openTarget(ctx, tx, requestID, "")
		if err != nil {
			return nil, err
		}
		chatID = r.ChatID
		reason, state := store.ReasonUserCancelled, store.DeliveryPending
		if byAgent {
			reason, state = store.ReasonAgentCancelled, store.DeliveryDelivered
		}
		if err := s.closeRequest(ctx, tx, &r, store.ReqCancelled, reason); err != nil {
			return nil, err
		}
		payload := mustJSON(map[string]any{"status": "input_cancelled", "requestId": r.ID})
		return &Receipt{RequestID: r.ID, Kind: "cancel", ApplyState: Applied, Missing: []string{}, RunID: r.RunID.String},
			s.recordDelivery(ctx, tx, r, store.DeliveryCancel, state, payload)
	})
}

// closeRequest closes r as state for reason, and announces it. A server's
// question records what its server receives (serverClosed), never a
// delivery to the model.
func (s *Service) closeRequest(ctx context.Context, tx *txn, r *store.Request, state, reason string) error {
	tx.emit(requestEvent(*r))
	now := s.nowMS()
	r.State, r.ClosedReason, r.UpdatedAt = state, reason, now
	r.ClosedAt.Int64, r.ClosedAt.Valid = now, true
	if err := s.saveRequest(ctx, tx, *r, nil); err != nil {
		return err
	}
	if err := s.store.SupersedeProposals(ctx, tx, r.ID, now); err != nil {
		return err
	}
	if r.OwnerKind == store.OwnerMCPServer {
		return s.serverClosed(ctx, tx, *r) // mcprequests.go
	}
	return nil
}

// setDeliveries writes each of ds that change says it changed.
func (s *Service) setDeliveries(ctx context.Context, tx store.Handle, ds []store.Delivery, change func(d *store.Delivery) bool) error {
	for _, d := range ds {
		if !change(&d) {
			continue
		}
		d.UpdatedAt = s.nowMS()
		if err := s.store.UpdateDelivery(ctx, tx, d); err != nil {
			return err
		}
	}
	return nil
}

// delivered marks d delivered, counting the attempt.
func delivered(d *store.Delivery) bool {
	d.Attempts++
	d.State, d.LastError = store.DeliveryDelivered, ""
	return true
}

func (s *Service) recordDelivery(ctx context.Context, tx store.Handle, r store.Request, kind, state, payload string) error {
	if r.OwnerKind == store.OwnerMCPServer {
		return nil // what its server receives was recorded as it closed (closeRequest)
	}
	now := s.nowMS()
	_, err := s.store.InsertDelivery(ctx, tx, store.Delivery{RequestID: r.ID, RunID: r.RunID, Kind: kind,
		State: state, Payload: payload, CreatedAt: now, UpdatedAt: now})
	return err
}
