package chat

import (
	"context"
	"errors"

	"followup/store"
)

// Resume drives a run that no live process holds — after a crash — to its
// next wait or end. Interrupted deliveries are reconciled on the way. A run
// that succeeded or was stopped is refused with TARGET_CLOSED (its view is
// returned with the error).
//
// A run that failed (a refused model call, say, before the key was fixed)
// is tried again from its recorded history: its requests and answers were
// left as they were, so nothing is lost or repeated.
func (s *Service) Resume(ctx context.Context, runID string) (RunView, error) {
	if err := s.expireDue(ctx); err != nil {
		return RunView{}, err
	}
	v, err := s.GetRun(ctx, runID)
	if err != nil {
		return v, err
	}
	if v.State == store.RunFailed {
		if err := s.reopenFailed(ctx, runID); err != nil {
			return v, err
		}
	} else if v.State.Final() {
		// Succeeded or stopped: nothing is left to drive, and saying so is
		// what Stop says of an ended run.
		return v, &Error{Code: CodeTargetClosed, Message: "the run already " + string(v.State) + "; there is nothing to resume",
			Details: map[string]any{"runId": v.ID, "state": string(v.State)}}
	}
	return s.Drive(ctx, runID)
}

func (s *Service) reopenFailed(ctx context.Context, runID string) error {
	return s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		if err := s.requireActive(ctx, tx, run.ChatID); err != nil {
			return err
		}
		if run.State != store.RunFailed {
			return nil
		}
		if run.ParentRunID != "" {
			return errorf(CodeRunNotResumable, "run %s is a sub-agent: its failure was reported to its parent, which decides; resume the task instead", runID)
		}
		// One active run per chat: only the chat's newest run may go on.
		if latest, err := s.store.LatestRun(ctx, tx, run.ChatID); err != nil {
			return err
		} else if latest.ID != run.ID {
			return errorf(CodeRunNotResumable, "a newer task has started in this chat; run %s stays failed", runID)
		}
		run.State, run.Error, run.UpdatedAt = store.RunRunning, "", s.nowMS()
		return s.store.UpdateRun(ctx, tx, run)
	})
}

// Orphaned lists unfinished runs that no live process drives and that
// resuming can move on: running ones, and waiting ones with an answer or
// cancellation not yet delivered (a run waiting for the user is not stuck).
// A run of an archived chat is left out: it cannot be driven.
func (s *Service) Orphaned(ctx context.Context) ([]RunView, error) {
	runs, err := s.store.ResumableRuns(ctx, s.reader())
	if err != nil {
		return nil, err
	}
	free := map[string]bool{}
	for _, r := range runs {
		if held, _ := s.db.LeaseHeld(r.Seq); !held {
			free[r.ID] = true
		}
	}
	if len(free) == 0 {
		return nil, nil
	}
	// A run read above may have been driven to its end and let go of
	// since: only a run still unfinished after its lease was seen free
	// is interrupted.
	if runs, err = s.store.ResumableRuns(ctx, s.reader()); err != nil {
		return nil, err
	}
	var out []RunView
	for _, r := range runs {
		if free[r.ID] {
			out = append(out, runView(r))
		}
	}
	return out, nil
}

// Retryable lists what the chat screen's ctrl+r may move on with chatID
// open ("" for a new chat): the interrupted runs no live process drives,
// in every chat (Orphaned), then chatID's newest run when that failed
// (Resume retries it from its recorded history). An archived chat's runs
// are not among them: they cannot be driven.
func (s *Service) Retryable(ctx context.Context, chatID string) ([]RunView, error) {
	out, err := s.Orphaned(ctx)
	if err != nil || chatID == "" {
		return out, err
	}
	c, err := s.store.GetChat(ctx, s.reader(), chatID)
	if err != nil {
		return nil, notFound(err, "chat", chatID)
	}
	if c.State == store.ChatArchived {
		return out, nil
	}
	latest, err := s.store.LatestRun(ctx, s.reader(), chatID)
	if errors.Is(err, store.ErrNotFound) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	if latest.State == store.RunFailed {
		if held, _ := s.db.LeaseHeld(latest.Seq); !held {
			out = append(out, runView(latest))
		}
	}
	return out, nil
}
