package chat

import (
	"context"
	"encoding/json"

	"followup/store"
)

// Cancel cancels one request (DESIGN §7): it becomes cancelled, the agent
// is told with an input_cancelled delivery, and the task goes on.
func (s *Service) Cancel(ctx context.Context, requestID, commandID string) (Receipt, error) {
	return s.cancel(ctx, requestID, commandID, false)
}

// cancel cancels a request. byAgent is the agent's own input_cancel: its
// tool result already tells it, so the delivery is recorded as delivered
// and the model is not told twice.
func (s *Service) cancel(ctx context.Context, requestID, commandID string, byAgent bool) (Receipt, error) {
	if err := s.ExpireDue(ctx); err != nil {
		return Receipt{}, err
	}
	var chatID, runID string
	out, err := s.command(ctx, commandID, "cancel", &chatID, map[string]any{"requestId": requestID}, func(q store.Q) (any, error) {
		r, _, err := s.openTarget(ctx, q, requestID, "")
		if err != nil {
			return nil, err
		}
		chatID, runID = r.ChatID, r.RunID.String
		if err := s.closeRequest(ctx, q, &r, store.ReqCancelled, ""); err != nil {
			return nil, err
		}
		payload := mustJSON(map[string]any{"status": "input_cancelled", "requestId": r.ID})
		state := store.DeliveryPending
		if byAgent {
			state = store.DeliveryDelivered
		}
		if err := s.recordDelivery(ctx, q, r, store.DeliveryCancel, state, payload); err != nil {
			return nil, err
		}
		return &Receipt{RequestID: r.ID, Kind: "cancel", ApplyState: Applied, Missing: []string{}, RunID: r.RunID.String}, nil
	})
	if err != nil {
		return Receipt{}, err
	}
	var rc Receipt
	if err := json.Unmarshal(out, &rc); err != nil {
		return rc, err
	}
	if chatID != "" {
		s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RunID: runID, RequestID: requestID})
	}
	return rc, nil
}

func (s *Service) closeRequest(ctx context.Context, q store.Q, r *store.Request, state, reason string) error {
	now := s.nowMS()
	r.State, r.ClosedReason, r.UpdatedAt = state, reason, now
	r.ClosedAt.Int64, r.ClosedAt.Valid = now, true
	if err := s.saveRequest(ctx, q, *r, nil); err != nil {
		return err
	}
	return q.SupersedeProposals(ctx, r.ID, now)
}

// expireRequest expires a pending request for reason and tells its run
// with an input_expired delivery.
func (s *Service) expireRequest(ctx context.Context, q store.Q, r *store.Request, reason string) error {
	if err := s.closeRequest(ctx, q, r, store.ReqExpired, reason); err != nil {
		return err
	}
	payload := mustJSON(map[string]any{"status": "input_expired", "requestId": r.ID, "reason": reason})
	return s.queueDelivery(ctx, q, *r, store.DeliveryExpire, payload)
}

func (s *Service) queueDelivery(ctx context.Context, q store.Q, r store.Request, kind, payload string) error {
	return s.recordDelivery(ctx, q, r, kind, store.DeliveryPending, payload)
}

func (s *Service) recordDelivery(ctx context.Context, q store.Q, r store.Request, kind, state, payload string) error {
	now := s.nowMS()
	_, err := q.InsertDelivery(ctx, store.Delivery{RequestID: r.ID, RunID: r.RunID, Kind: kind,
		State: state, Payload: payload, CreatedAt: now, UpdatedAt: now})
	return err
}

// StopResult is the receipt of stopping a task.
type StopResult struct {
	RunID     string `json:"id"`
	State     string `json:"state"`
	CommandID string `json:"commandId"`
}

func (r *StopResult) setCommandID(id string) { r.CommandID = id }

// Stop stops a task (DESIGN §7): the run becomes stopped, an in-flight
// model call in this process is cancelled (another process's driver finds
// the run stopped before it records anything), its pending requests expire
// with reason task_stopped, nothing is delivered and no model is called.
func (s *Service) Stop(ctx context.Context, runID, commandID string) (StopResult, error) {
	var chatID string
	out, err := s.command(ctx, commandID, "stop", &chatID, map[string]any{"runId": runID}, func(q store.Q) (any, error) {
		run, err := q.GetRun(ctx, runID)
		if err != nil {
			return nil, notFound(err, "run", runID)
		}
		chatID = run.ChatID
		if store.RunEnded(run.State) {
			return nil, errorf(CodeTargetClosed, "the run already %s", run.State)
		}
		now := s.nowMS()
		run.State, run.UpdatedAt = store.RunStopped, now
		if err := q.UpdateRun(ctx, run); err != nil {
			return nil, err
		}
		reqs, err := q.ListRequests(ctx, store.RequestFilter{RunID: runID, State: store.ReqPending})
		if err != nil {
			return nil, err
		}
		for _, r := range reqs {
			if err := s.closeRequest(ctx, q, &r, store.ReqExpired, store.ReasonTaskStopped); err != nil {
				return nil, err
			}
		}
		ds, err := q.RunDeliveries(ctx, runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			d.State, d.LastError, d.UpdatedAt = store.DeliveryFailed, "the task was stopped", now
			if err := q.UpdateDelivery(ctx, d); err != nil {
				return nil, err
			}
		}
		if _, err := q.InsertMessage(ctx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleNotice,
			Content: "Task stopped. Its open questions expired; the conversation stays.", Visible: true, CreatedAt: now}); err != nil {
			return nil, err
		}
		return &StopResult{RunID: runID, State: store.RunStopped}, nil
	})
	if err != nil {
		return StopResult{}, err
	}
	s.cancelDrive(runID)
	var res StopResult
	if err := json.Unmarshal(out, &res); err != nil {
		return res, err
	}
	s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RunID: runID})
	s.broker.Publish(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
	return res, nil
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
	if due, err := s.st.Read().DueRequests(ctx, now); err != nil || len(due) == 0 {
		return err
	}
	return s.expireWhere(ctx, store.ReasonDeadline, func(q store.Q) ([]store.Request, error) {
		return q.DueRequests(ctx, now)
	})
}

// expireWhere expires, in one transaction, the pending requests that find
// returns, each with reason and a delivery telling its run, and then
// announces them.
func (s *Service) expireWhere(ctx context.Context, reason string, find func(q store.Q) ([]store.Request, error)) error {
	var expired []store.Request
	err := s.st.Write(ctx, func(q store.Q) error {
		expired = nil
		rs, err := find(q)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := s.expireRequest(ctx, q, &r, reason); err != nil {
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
