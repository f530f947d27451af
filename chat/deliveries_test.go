package chat

import (
	"context"
	"database/sql"
	"testing"

	"followup/store"
)

// TestInterruptedDeliveryIsDeliveredOnce simulates a crash between
// recording the delivery attempt (state unknown) and writing the history
// message, and one after the message but before the state was updated.
// Driving or resuming the run reconciles: one history message, delivered.
func TestInterruptedDeliveryIsDeliveredOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		withMessage bool
		resume      bool
	}{
		{"before the message, Drive", false, false},
		{"before the message, Resume", false, true},
		{"after the message, Drive", true, false},
		{"after the message, Resume", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := fxOpen(t, nil)
			sent, req := fxDeploy(t, s)
			if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "production"}}); err != nil {
				t.Fatal(err)
			}
			err := s.db.Write(ctx, func(tx store.Handle) error {
				ds, err := s.store.RunDeliveries(ctx, tx, sent.RunID, store.DeliveryPending)
				if err != nil || len(ds) != 1 {
					t.Fatalf("pending deliveries = %v, %v", ds, err)
				}
				d := ds[0]
				d.State, d.Attempts = store.DeliveryUnknown, 1
				if err := s.store.UpdateDelivery(ctx, tx, d); err != nil {
					return err
				}
				if !tc.withMessage {
					return nil
				}
				_, err = s.store.InsertMessage(ctx, tx, store.Message{ChatID: sent.ChatID, RunID: nullString(sent.RunID), Role: store.RoleUser,
					Content: d.Payload, RequestID: nullString(req.ID), DeliveryID: sql.NullInt64{Int64: d.ID, Valid: true}, ForModel: true})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if orphans, err := s.Orphaned(ctx); err != nil || len(orphans) != 1 {
				t.Fatalf("orphaned runs = %+v, %v", orphans, err)
			}
			drive := s.Drive
			if tc.resume {
				drive = s.Resume
			}
			run, err := drive(ctx, sent.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if run.State != store.RunSucceeded {
				t.Fatalf("run = %s %s", run.State, run.Error)
			}
			v, _ := s.Request(ctx, req.ID)
			d := v.Deliveries[0]
			if d.State != store.DeliveryDelivered {
				t.Fatalf("delivery = %+v", d)
			}
			if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE delivery_id = ?`, d.ID); n != 1 {
				t.Fatalf("history messages for the delivery = %d, want 1", n)
			}
			// Driving again delivers nothing more.
			if _, err := s.Drive(ctx, sent.RunID); err != nil {
				t.Fatal(err)
			}
			if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE delivery_id = ?`, d.ID); n != 1 {
				t.Fatalf("after a second drive: %d messages", n)
			}
			if n := fxCount(t, s, `SELECT COUNT(*) FROM messages WHERE run_id = ? AND role = 'user' AND content LIKE '%input_received%'`, sent.RunID); n != 1 {
				t.Fatalf("answers in the history = %d, want 1", n)
			}
		})
	}
}
