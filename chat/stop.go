package chat

import (
	"context"

	"followup/store"
)

// StopResult is the receipt of stopping a task.
type StopResult struct {
	RunID     string `json:"id"`
	State     string `json:"state"`
	CommandID string `json:"commandId"`
}

func (r *StopResult) setCommandID(id string) { r.CommandID = id }

// Stop stops a task (docs/behaviour.md) and every sub-agent under it: each run becomes stopped, an in-flight
// model call in this process is cancelled (another process's driver finds
// the run stopped before it records anything), its pending requests expire
// with reason task_stopped, nothing is delivered and no model is called.
func (s *Service) Stop(ctx context.Context, runID, commandID string) (StopResult, error) {
	var chatID, parent string
	var stopped bool
	res, err := commandAs(s, ctx, commandID, "stop", &chatID, map[string]any{"runId": runID}, func(tx *txn) (*StopResult, error) {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return nil, notFound(err, "run", runID)
		}
		chatID = run.ChatID
		if store.RunEnded(run.State) {
			return nil, errorf(CodeTargetClosed, "the run already %s", run.State)
		}
		tree, err := s.store.Tree(ctx, tx, runID)
		if err != nil {
			return nil, err
		}
		for _, r := range tree {
			if !store.RunEnded(r.State) {
				if err := s.stopOne(ctx, tx, r); err != nil {
					return nil, err
				}
				tx.onCommit(func() { s.cancelDrive(r.ID) })
				stopped = true
			}
		}
		run.State, parent = store.RunStopped, run.ParentRunID
		if err := s.childEnded(ctx, tx, run); err != nil {
			return nil, err
		}
		if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleNotice,
			Content: "Task stopped. Its open questions expired; the conversation stays.", Visible: true, CreatedAt: s.nowMS()}); err != nil {
			return nil, err
		}
		tx.emit(Event{Kind: EvRun, ChatID: chatID, RunID: runID}, Event{Kind: EvRequest, ChatID: chatID, RunID: runID},
			Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
		return &StopResult{RunID: runID, State: store.RunStopped}, nil
	})
	if err != nil {
		return res, err
	}
	if parent != "" && stopped {
		s.DriveOn(ctx, parent) // a sub-agent stopped alone: its parent reads it failed and decides
	}
	return res, nil
}

// stopOne stops one run of a stopped task (the run or one of its
// sub-agents): its pending requests and approvals expire (task_stopped),
// its undelivered answers are not delivered.
func (s *Service) stopOne(ctx context.Context, tx *txn, run store.Run) error {
	now := s.nowMS()
	run.State, run.UpdatedAt = store.RunStopped, now
	if err := s.store.UpdateRun(ctx, tx, run); err != nil {
		return err
	}
	reqs, err := s.store.ListRequests(ctx, tx, store.RequestFilter{RunID: run.ID, State: store.ReqPending})
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if err := s.closeRequest(ctx, tx, &r, store.ReqExpired, store.ReasonTaskStopped); err != nil {
			return err
		}
	}
	if err := s.expireApprovals(ctx, tx, run.ID); err != nil {
		return err
	}
	ds, err := s.store.RunDeliveries(ctx, tx, run.ID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return err
	}
	return s.setDeliveries(ctx, tx, ds, func(d *store.Delivery) bool {
		d.State, d.LastError = store.DeliveryFailed, "the task was stopped"
		return true
	})
}

// cancelDrive cancels this process's drive of a run, if any.
func (s *Service) cancelDrive(runID string) {
	if runID == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel := s.driving[runID]; cancel != nil {
		cancel()
	}
}
