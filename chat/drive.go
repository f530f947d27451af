package chat

import (
	"context"
	"encoding/json"
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

// quietEvents streams a sub-agent's calls like any other, and shows none.
type quietEvents struct{}

func (quietEvents) Streaming(string, string, bool) {}
func (quietEvents) Thinking(string, bool)          {}

// RunView is a run as the CLI and UI show it.
type RunView struct {
	ID         string   `json:"id"`
	ChatID     string   `json:"chatId"`
	State      RunState `json:"state"`
	Reply      string   `json:"reply"`
	Result     any      `json:"result"`
	Error      string   `json:"error,omitempty"`
	Step       int      `json:"step"`
	ModelCalls int      `json:"modelCalls"`
	Provider   string   `json:"provider"`
	// A sub-agent's run names its parent and itself (docs/behaviour.md).
	ParentRunID string `json:"parentRunId,omitempty"`
	Name        string `json:"name,omitempty"`
	// Skills are the skills the run activated, newest last.
	Skills []ActiveSkill `json:"skills,omitempty"`
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
	v := RunView{ID: r.ID, ChatID: r.ChatID, State: RunState(r.State), Reply: r.Reply, Error: r.Error, Step: r.Step,
		ModelCalls: r.ModelCalls, Provider: r.Provider, ParentRunID: r.ParentRunID, Name: r.Name, Skills: runSkills(r)}
	if r.Result.Valid {
		v.Result = decodeValues(r.Result.String)
	}
	return v
}

// Drive drives a run until it waits for input or ends, holding its lease
// (RUN_BUSY when another live process drives it) from its first turn to
// its last: between two turns the run is still this drive's, never
// offered as interrupted (Orphaned). A run stopped meanwhile ends the
// drive quietly. A run waiting for its sub-agents drives them (each under
// its own lease) and goes on when they let it; a sub-agent that ends
// drives its parent on, unless another drive holds it.
func (s *Service) Drive(ctx context.Context, runID string) (RunView, error) {
	v, err := s.drive(ctx, runID)
	if err == nil && v.State.Final() && v.ParentRunID != "" {
		s.DriveOn(ctx, v.ParentRunID)
	}
	return v, err
}

func (s *Service) drive(ctx context.Context, runID string) (RunView, error) {
	run, err := s.store.GetRun(ctx, s.reader(), runID)
	if err != nil {
		return RunView{}, notFound(err, "run", runID)
	}
	// Nothing of an archived chat moves: not even a pending delivery.
	if err := s.requireActive(ctx, s.db.Reader(), run.ChatID); err != nil {
		return RunView{}, err
	}
	lease, err := s.db.AcquireLease(run.Seq)
	if errors.Is(err, store.ErrLeaseHeld) {
		return RunView{}, errorf(CodeRunBusy, "run %s is being driven by another process", runID)
	} else if err != nil {
		return RunView{}, err
	}
	defer lease.Release()
	s.checkpoint(CrashDrive)
	for {
		if err := s.driveOnce(ctx, run); err != nil {
			return RunView{}, err
		}
		v, err := s.GetRun(ctx, runID)
		if err != nil {
			return v, err
		}
		// An answer or a message recorded while we drove may have found
		// the run busy: look once more.
		if v.State.Final() || ctx.Err() != nil {
			return v, ctx.Err()
		}
		if v.State == RunRunning {
			continue
		}
		if v.State == RunWaitingChildren {
			if on, err := s.driveChildren(ctx, runID); err != nil || on {
				if err != nil {
					return v, err
				}
				continue
			}
		}
		ds, err := s.store.RunDeliveries(ctx, s.reader(), runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil || len(ds) == 0 {
			return v, err
		}
	}
}

// DriveOn is what happens to a run after an operation on it (an answer, a
// cancel, a decision on a tool call or a link): it is driven here to its
// next wait or end, unless another process drives it — then elsewhere is
// true and v is the run as it stands — or it has ended. A question of an
// MCP client (no runID) has no run of followup's to move: v is empty.
// Front ends only choose whether to wait for it.
func (s *Service) DriveOn(ctx context.Context, runID string) (v RunView, elsewhere bool, err error) {
	if runID == "" {
		return RunView{}, false, nil
	}
	v, err = s.Drive(ctx, runID)
	if code := CodeOf(err); code == CodeRunBusy || code == CodeTargetClosed {
		v, err = s.GetRun(ctx, runID)
		return v, code == CodeRunBusy && err == nil, err
	}
	return v, false, err
}

// driveOnce runs the model loop once, under the lease Drive holds.
func (s *Service) driveOnce(ctx context.Context, run store.Run) error {
	runID := run.ID
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
		Provider: s.provider, Tools: s.tools, Host: runHost{s}, System: s.system,
		Model: s.model, MaxModelCalls: s.policy.ModelCalls, Events: streamEvents{s, run.ChatID},
		Checkpoint: s.onStep, Delegate: runHost{s},
	}
	if run.ParentRunID != "" {
		r.Events = quietEvents{} // a sub-agent's text is its row's, not the chat's stream
	}
	if run.Tools.Valid {
		var names []string
		json.Unmarshal([]byte(run.Tools.String), &names)
		r.Only = map[string]bool{}
		for _, n := range names {
			r.Only[n] = true
		}
	}
	defer s.mcp.attach(ctx, r, run)()
	_, err := r.Drive(ctx, runID)
	if errors.Is(err, agent.ErrRunEnded) || (err != nil && ctx.Err() != nil) {
		return nil // stopped while driving: the stop already recorded everything
	}
	return err
}

// stopWatchEvery is how often a drive looks whether another process has
// stopped its run: a stop ends the model call within a second
// (docs/behaviour.md) whichever process asks for it.
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
