package chat

import (
	"context"
	"errors"
	"time"

	"followup/agent"
	"followup/store"
)

// streamEvents forwards the loop's streaming to the broker.
type streamEvents struct {
	s      *Service
	chatID string
}

func (e streamEvents) Streaming(runID, delta string, reset bool) {
	e.s.broker.Publish(Event{Kind: EvStream, ChatID: e.chatID, RunID: runID, Delta: delta, Reset: reset})
}

func (e streamEvents) Thinking(runID string, on bool) {
	e.s.broker.Publish(Event{Kind: EvThinking, ChatID: e.chatID, RunID: runID, On: on})
}

// RunView is a run as the CLI and UI show it.
type RunView struct {
	ID         string `json:"id"`
	ChatID     string `json:"chatId"`
	State      string `json:"state"`
	Reply      string `json:"reply"`
	Result     any    `json:"result"`
	Error      string `json:"error,omitempty"`
	Step       int    `json:"step"`
	ModelCalls int    `json:"modelCalls"`
	Provider   string `json:"provider"`
}

// GetRun reads one run.
func (s *Service) GetRun(ctx context.Context, runID string) (RunView, error) {
	r, err := s.store.GetRun(ctx, s.reader(), runID)
	if err != nil {
		return RunView{}, notFound(err, "run", runID)
	}
	return runView(r), nil
}

func runView(r store.Run) RunView {
	v := RunView{ID: r.ID, ChatID: r.ChatID, State: r.State, Reply: r.Reply, Error: r.Error, Step: r.Step,
		ModelCalls: r.ModelCalls, Provider: r.Provider}
	if r.Result.Valid {
		v.Result = decodeValues(r.Result.String)
	}
	return v
}

// Drive drives a run until it waits for input or ends, holding its lease
// (RUN_BUSY when another live process drives it). A run stopped meanwhile
// ends the drive quietly.
func (s *Service) Drive(ctx context.Context, runID string) (RunView, error) {
	s.checkpoint(CrashDrive)
	for {
		if err := s.driveOnce(ctx, runID); err != nil {
			return RunView{}, err
		}
		v, err := s.GetRun(ctx, runID)
		if err != nil {
			return v, err
		}
		// An answer or a message recorded while we held the lease may have
		// found it busy: look once more now that it is free.
		if store.RunEnded(v.State) || ctx.Err() != nil {
			return v, ctx.Err()
		}
		if v.State == store.RunRunning {
			continue
		}
		ds, err := s.store.RunDeliveries(ctx, s.reader(), runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil || len(ds) == 0 {
			return v, err
		}
	}
}

func (s *Service) driveOnce(ctx context.Context, runID string) error {
	run, err := s.store.GetRun(ctx, s.reader(), runID)
	if err != nil {
		return notFound(err, "run", runID)
	}
	// Nothing of an archived chat moves: not even a pending delivery.
	if err := s.requireActive(ctx, s.db.Reader(), run.ChatID); err != nil {
		return err
	}
	lease, err := s.db.AcquireLease(run.Seq)
	if errors.Is(err, store.ErrLeaseHeld) {
		return errorf(CodeRunBusy, "run %s is being driven by another process", runID)
	} else if err != nil {
		return err
	}
	defer lease.Release()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.driving[runID] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.driving, runID)
		s.mu.Unlock()
	}()
	go s.watchForStop(ctx, cancel, runID, run.ChatID)
	r := &agent.Runner{
		Provider: s.provider, Tools: s.tools, Host: runHost{s}, System: agent.SystemPrompt,
		Model: s.model, MaxModelCalls: s.policy.ModelCalls, Events: streamEvents{s, run.ChatID},
		Checkpoint: s.onStep,
	}
	_, err = r.Drive(ctx, runID)
	if errors.Is(err, agent.ErrRunEnded) || (err != nil && ctx.Err() != nil) {
		return nil // stopped while driving: the stop already recorded everything
	}
	return err
}

// stopWatchEvery is how often a drive looks whether another process has
// stopped its run: a stop ends the model call within a second (DESIGN §7,
// §15) whichever process asks for it.
var stopWatchEvery = 250 * time.Millisecond

// watchForStop cancels the drive once another process has stopped the run,
// deleted it or archived its chat — a stop in this process cancels it
// directly (cancelDrive). It reads two rows on a reader every
// stopWatchEvery, and only while this process drives.
func (s *Service) watchForStop(ctx context.Context, cancel context.CancelFunc, runID, chatID string) {
	t := time.NewTicker(stopWatchEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if s.endedElsewhere(ctx, runID, chatID) {
			cancel()
			return
		}
	}
}

// endedElsewhere reports whether the run may no longer be driven: stopped,
// gone, or in a chat archived or gone. A read that fails says nothing.
func (s *Service) endedElsewhere(ctx context.Context, runID, chatID string) bool {
	run, err := s.store.GetRun(ctx, s.reader(), runID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return true
	case err != nil:
		return false
	case run.State == store.RunStopped:
		return true
	}
	c, err := s.store.GetChat(ctx, s.reader(), chatID)
	return errors.Is(err, store.ErrNotFound) || (err == nil && c.State == store.ChatArchived)
}

// Busy reports whether a live process is driving the run.
func (s *Service) Busy(runID string) bool {
	run, err := s.store.GetRun(context.Background(), s.reader(), runID)
	if err != nil {
		return false
	}
	held, _ := s.db.LeaseHeld(run.Seq)
	return held
}

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
	} else if store.RunEnded(v.State) {
		// Succeeded or stopped: nothing is left to drive, and saying so is
		// what Stop says of an ended run.
		return v, &Error{Code: CodeTargetClosed, Message: "the run already " + v.State + "; there is nothing to resume",
			Details: map[string]any{"runId": v.ID, "state": v.State}}
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
	var out []RunView
	for _, r := range runs {
		if held, _ := s.db.LeaseHeld(r.Seq); held {
			continue
		}
		out = append(out, runView(r))
	}
	return out, nil
}
