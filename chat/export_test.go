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
