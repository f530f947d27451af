package chat

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"followup/store"
)

// Settling a run after a model turn or its tools: wait, end or go on.

func (h runHost) Settle(ctx context.Context, runID string, final bool) (string, error) {
	s := h.s
	var state string
	err := s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		tx.emit(Event{Kind: EvRun, ChatID: run.ChatID, RunID: runID})
		state = run.State
		if run.State != store.RunRunning {
			return nil
		}
		// A tool call waiting for the user (approvals.go) keeps the run
		// waiting whatever else arrived: the model cannot answer before it.
		if waits, err := s.stepWaits(ctx, tx, runID); err != nil || waits {
			if waits {
				state = store.RunWaitingInput
				_, err = s.moveRun(ctx, tx, &run, store.RunRunning, state)
			}
			return err
		}
		// A sub-agent still at work keeps its delegate call open: the
		// model cannot be called before it ends.
		if open, err := s.openChildren(ctx, tx, run); err != nil || open {
			if open {
				state = store.RunWaitingChildren
				_, err = s.moveRun(ctx, tx, &run, store.RunRunning, state)
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
			// After its tools, the run waits for the user when they asked
			// a question, or only proposed or changed things that were
			// taken; otherwise (a refused proposal, a list, another
			// server's tool) the model reads the results first.
			if waits, err = s.nothingToRead(ctx, tx, runID); err != nil {
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
			if err := s.childEnded(ctx, tx, run); err != nil {
				return err
			}
		default:
			return nil
		}
		run.State, run.UpdatedAt = state, s.nowMS()
		return s.store.UpdateRun(ctx, tx, run)
	})
	if err == nil {
		s.checkpoint(CrashSettled)
	}
	return state, err
}

// inputWrites are the input tools whose success leaves nothing for the
// model to read: the question, proposal, replacement or cancellation is
// now the user's to act on.
var inputWrites = map[string]bool{"input_request": true, "input_resolve": true, "input_replace": true, "input_cancel": true}

// nothingToRead reports whether the tools of the run's newest model turn
// leave the model nothing to read before the user acts: the turn opened a
// question that now waits, or every tool it called was an input write that
// succeeded.
func (s *Service) nothingToRead(ctx context.Context, tx store.Handle, runID string) (bool, error) {
	turn, err := s.store.LastTurn(ctx, tx, runID)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	results, err := s.store.ToolResultsAfter(ctx, tx, runID, turn.ID)
	if err != nil {
		return false, err
	}
	asked, toRead := false, false
	for _, m := range results {
		var res struct {
			OK    bool   `json:"ok"`
			State string `json:"state"`
		}
		taken := inputWrites[m.ToolName] && json.Unmarshal([]byte(m.Content), &res) == nil && res.OK
		// A question answered at once (everything supplied) is a result to
		// read; one left pending is the user's.
		asked = asked || (taken && m.ToolName == "input_request" && res.State == store.ReqPending)
		toRead = toRead || !taken
	}
	return asked || !toRead, nil
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
		maps.Copy(out, decodeValues(a.Values))
	}
	return mustJSON(out), nil
}
