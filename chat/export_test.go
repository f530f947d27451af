package chat

import (
	"context"
	"encoding/json"

	"followup/store"
)

// CheckPendingItems is checkPendingItems for the external tests.
func CheckPendingItems(s *Service) error { return checkPendingItems(context.Background(), s) }

// HoldLease takes a run's lease as a live driver would, for tests that need
// a run another process seems to drive.
func HoldLease(s *Service, runID string) (*store.Lease, error) {
	run, err := s.store.GetRun(context.Background(), s.reader(), runID)
	if err != nil {
		return nil, err
	}
	return s.db.AcquireLease(run.Seq)
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

// Items decodes the list.
func (l PendingList) Items() ([]RequestItem, error) {
	out := make([]RequestItem, len(l.items))
	for i, it := range l.items {
		if err := json.Unmarshal([]byte(it.Item), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ToolSteps lists a chat's MCP tool calls, oldest first. The transcript
// row of each (role tool_step) names it by RunID and ToolCallID.
func (s *Service) ToolSteps(ctx context.Context, chatID string) ([]ToolStepView, error) {
	out := []ToolStepView{}
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		steps, err := s.store.ChatToolSteps(ctx, tx, chatID)
		if err != nil {
			return err
		}
		for _, st := range steps {
			v, err := s.toolStepView(ctx, tx, st)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	return out, err
}
