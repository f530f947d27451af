package chat

import (
	"context"
	"path/filepath"
	"testing"
)

// What happens to a run after an operation: driven here to its next wait
// or end; left to the process that drives it (elsewhere, as it stands);
// nothing for a question without a run of followup's.
func TestDriveOnAfterAnOperation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	if v, elsewhere, err := s.DriveOn(ctx, ""); err != nil || elsewhere || v.ID != "" {
		t.Fatalf("no run: %+v %v %v", v, elsewhere, err)
	}
	sent, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if v, elsewhere, err := s.DriveOn(ctx, sent.RunID); err != nil || elsewhere || v.State != RunSucceeded {
		t.Fatalf("driven here: %+v %v %v", v, elsewhere, err)
	}

	sent, req = fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	lease, err := HoldLease(s, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	v, elsewhere, err := s.DriveOn(ctx, sent.RunID)
	lease.Release()
	if err != nil || !elsewhere || v.ID != sent.RunID || v.State != RunWaitingInput {
		t.Fatalf("driven elsewhere: %+v %v %v", v, elsewhere, err)
	}
}

// A run being driven is never offered as interrupted: its drive holds it
// from its first turn (a screen counted a run it drove itself as
// interrupted, and ctrl+r then found it ended).
func TestADrivenRunIsNotInterrupted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var s *Service
	var offered []string
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "followup.db"), Checkpoint: func(step string) {
		if step != CrashDrive {
			return
		}
		orphans, err := s.Orphaned(ctx)
		if err != nil {
			t.Error(err)
		}
		for _, r := range orphans {
			offered = append(offered, r.ID+" "+string(r.State))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sent, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drive(ctx, sent.RunID); err != nil {
		t.Fatal(err)
	}
	if len(offered) > 0 {
		t.Fatalf("offered as interrupted while driven: %v", offered)
	}
}
