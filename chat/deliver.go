package chat

import (
	"context"
	"slices"

	"followup/store"
)

// Delivering answers, cancellations and expiries to a run's history (docs/behaviour.md).

// Deliver hands each pending or interrupted delivery to the run's history
// exactly once. The attempt is recorded first (state unknown); if the
// process dies before the message is written, the next Deliver finds the
// delivery unknown, checks the history, and delivers it once. Only the
// lease holder delivers, but a stop from another process may close a
// delivery at any time, so each step re-reads it inside its transaction.
func (h runHost) Deliver(ctx context.Context, runID string) (int, error) {
	s := h.s
	// A failed run keeps its deliveries pending until it is resumed.
	if run, err := s.store.GetRun(ctx, s.reader(), runID); err != nil || run.State == store.RunFailed {
		return 0, err
	} else if err := s.tellSkillChanges(ctx, run); err != nil {
		return 0, err
	}
	ds, err := s.store.RunDeliveries(ctx, s.reader(), runID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range ds {
		open := false
		err := s.db.Write(ctx, func(tx store.Handle) error {
			cur, ok, err := s.openDelivery(ctx, tx, runID, d.ID)
			if err != nil || !ok {
				return err
			}
			open, d = true, cur
			d.Attempts++
			d.State, d.UpdatedAt = store.DeliveryUnknown, s.nowMS()
			return s.store.UpdateDelivery(ctx, tx, d)
		})
		if err != nil {
			return n, err
		}
		if !open {
			continue
		}
		s.checkpoint(CrashDeliveryUnknown)
		delivered := false
		err = s.write(ctx, func(tx *txn) error {
			run, err := s.store.GetRun(ctx, tx, runID)
			if err != nil {
				return err
			}
			tx.emit(Event{Kind: EvRequest, ChatID: run.ChatID, RunID: runID, RequestID: d.RequestID}, Event{Kind: EvRun, ChatID: run.ChatID, RunID: runID})
			cur, ok, err := s.openDelivery(ctx, tx, runID, d.ID)
			if err != nil || !ok {
				return err
			}
			d = cur
			now := s.nowMS()
			if run.State == store.RunFailed {
				return nil // kept pending: resuming the run delivers it
			}
			if store.RunEnded(run.State) {
				d.State, d.LastError = store.DeliveryFailed, "the run had "+run.State
				d.UpdatedAt = now
				return s.store.UpdateDelivery(ctx, tx, d)
			}
			done, err := s.store.MessageForDelivery(ctx, tx, d.ID)
			if err != nil {
				return err
			}
			if !done {
				if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleUser,
					Content: d.Payload, RequestID: nullString(d.RequestID), DeliveryID: nullInt(d.ID), ForModel: true, CreatedAt: now}); err != nil {
					return err
				}
			}
			delivered = true
			d.State, d.LastError, d.UpdatedAt = store.DeliveryDelivered, "", now
			if err := s.store.UpdateDelivery(ctx, tx, d); err != nil {
				return err
			}
			return s.wake(ctx, tx, run)
		})
		if err != nil {
			return n, err
		}
		s.checkpoint(CrashDeliveryWritten)
		if delivered {
			n++
		}
	}
	return n, nil
}

// wake moves a run that waits for input back to running.
func (s *Service) wake(ctx context.Context, tx *txn, run store.Run) error {
	_, err := s.moveRun(ctx, tx, &run, store.RunWaitingInput, store.RunRunning)
	return err
}

// moveRun moves run to state to when it is in state from, announces it,
// and reports whether it was.
func (s *Service) moveRun(ctx context.Context, tx *txn, run *store.Run, from, to string) (bool, error) {
	if run.State != from {
		return false, nil
	}
	run.State, run.UpdatedAt = to, s.nowMS()
	tx.emit(Event{Kind: EvRun, ChatID: run.ChatID, RunID: run.ID})
	return true, s.store.UpdateRun(ctx, tx, *run)
}

// openDelivery re-reads a delivery that must still be pending or unknown.
func (s *Service) openDelivery(ctx context.Context, tx store.Handle, runID string, id int64) (store.Delivery, bool, error) {
	ds, err := s.store.RunDeliveries(ctx, tx, runID, store.DeliveryPending, store.DeliveryUnknown)
	i := slices.IndexFunc(ds, func(d store.Delivery) bool { return d.ID == id })
	if err != nil || i < 0 {
		return store.Delivery{}, false, err
	}
	return ds[i], true, nil
}
