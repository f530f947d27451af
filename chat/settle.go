package chat

import (
	"context"
	"encoding/json"
	"errors"

	"followup/agent"
	"followup/store"
)

// Settling a run after a model turn or its tools: wait, end or go on.

func (h runHost) Settle(ctx context.Context, runID string, final bool) (string, error) {
	s := h.s
	var state, chatID string
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		chatID, state = run.ChatID, run.State
		if run.State != store.RunRunning {
			return nil
		}
		// A tool call waiting for the user (approvals.go) keeps the run
		// waiting whatever else arrived: the model cannot answer before it.
		if waits, err := s.stepWaits(ctx, tx, runID); err != nil || waits {
			if waits {
				state, run.State, run.UpdatedAt = store.RunWaitingInput, store.RunWaitingInput, s.nowMS()
				err = s.store.UpdateRun(ctx, tx, run)
			}
			return err
		}
		ds, err := s.store.RunDeliveries(ctx, tx, runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil || len(ds) > 0 {
			return err // something new for the model: keep running
		}
		// A message the user sent while the model was answering is newer
		// than what its turn read: the model must answer it too.
		if unread, err := s.store.UnreadUserMessages(ctx, tx, runID, run.Seen); err != nil || unread {
			return err
		}
		pend, err := s.store.ListRequests(ctx, tx, store.RequestFilter{RunID: runID, State: store.ReqPending, Limit: 1})
		if err != nil {
			return err
		}
		waits := len(pend) > 0
		if waits && !final {
			// After its tools, the run waits only for a question it just
			// asked: the result of any other tool (a refused proposal, a
			// list, another server's tool) is the model's to read first.
			if waits, err = s.askedLastTurn(ctx, tx, runID); err != nil {
				return err
			}
		}
		switch {
		case waits:
			state = store.RunWaitingInput
		case final:
			state = store.RunSucceeded
			res, err := s.runResult(ctx, tx, runID)
			if err != nil {
				return err
			}
			run.Result = nullString(res)
		default:
			return nil
		}
		run.State, run.UpdatedAt = state, s.nowMS()
		return s.store.UpdateRun(ctx, tx, run)
	})
	if err == nil {
		s.checkpoint(CrashSettled)
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	}
	return state, err
}

// askedLastTurn reports whether the run's newest model turn called
// input_request.
func (s *Service) askedLastTurn(ctx context.Context, tx store.Handle, runID string) (bool, error) {
	m, err := s.store.LastTurn(ctx, tx, runID)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	var calls []agent.ToolCall
	json.Unmarshal([]byte(m.ToolCalls.String), &calls)
	for _, c := range calls {
		if c.Name == "input_request" {
			return true, nil
		}
	}
	return false, nil
}

// runResult merges the values of the run's answered requests, in order.
func (s *Service) runResult(ctx context.Context, tx store.Handle, runID string) (string, error) {
	rs, err := s.store.ListRequests(ctx, tx, store.RequestFilter{RunID: runID, State: store.ReqAnswered})
	if err != nil {
		return "", err
	}
	out := map[string]any{}
	for _, r := range rs {
		if r.OwnerKind == store.OwnerMCPServer {
			continue // what the user told a server is the server's, not the run's result
		}
		a, err := s.store.GetAnswer(ctx, tx, r.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return "", err
		}
		for k, v := range decodeValues(a.Values) {
			out[k] = v
		}
	}
	return mustJSON(out), nil
}
