package chat

import (
	"context"

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
