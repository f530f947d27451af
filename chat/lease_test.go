package chat_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"followup/chat"
	"followup/store"
)

// TestLeaseRefusesSecondDriver: while a live holder has the run's lease,
// another host's Drive and another process's resume get RUN_BUSY, Orphaned
// does not offer the run, and reads go on.
func TestLeaseRefusesSecondDriver(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	sent, err := w.svc.Send(ctx, "", "Check deployment", "")
	if err != nil {
		t.Fatal(err)
	}
	lease, err := chat.HoldLease(w.svc, sent.RunID)
	if err != nil {
		t.Fatal(err)
	}
	other, err := chat.Open(ctx, chat.Options{DBPath: w.cli.db})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Drive(ctx, sent.RunID); chat.CodeOf(err) != chat.CodeRunBusy {
		t.Fatalf("second driver: %v, want RUN_BUSY", err)
	}
	r := w.cli.run(nil, "resume", sent.RunID)
	if r.Code != 1 || str(r.JSON, "error", "code") != chat.CodeRunBusy {
		t.Fatalf("resume while held: %s", r)
	}
	if orphans, _ := other.Orphaned(ctx); len(orphans) != 0 {
		t.Fatalf("a held run is offered for resume: %+v", orphans)
	}
	if _, err := other.GetRun(ctx, sent.RunID); err != nil {
		t.Fatalf("read while held: %v", err)
	}
	lease.Release()
	if v, err := other.Drive(ctx, sent.RunID); err != nil || v.State != store.RunWaitingInput {
		t.Fatalf("drive after release: %+v %v", v, err)
	}
}

// TestLeaseFreedWhenHolderKilled: a process stalls in a model call while
// it drives; a second driver gets RUN_BUSY, readers in other processes are
// not blocked, and after SIGKILL the lease is free at once.
func TestLeaseFreedWhenHolderKilled(t *testing.T) {
	t.Parallel()
	w, f := providerWorld(t, testKey)
	f.Then(f.Stall())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	holder, _, _ := w.cli.command(ctx, nil, "ask", "Deploy the release", "--command-id", "ask-held")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	done := make(chan struct{}) // closed when the holder has exited
	go func() { waitErr = holder.Wait(); close(done) }()
	defer func() { holder.Process.Kill(); <-done }()
	select {
	case <-f.Stalled():
	case <-done:
		t.Fatalf("the driver ended before its model call: %v", waitErr)
	case <-ctx.Done():
		t.Fatal("no model call")
	}
	runID := w.runOfCommand("ask-held")
	if !w.svc.Busy(runID) {
		t.Fatal("the driving process does not hold the lease")
	}
	if r := w.cli.run(nil, "resume", runID); r.Code != 1 || str(r.JSON, "error", "code") != chat.CodeRunBusy {
		t.Fatalf("second driver: %s", r)
	}
	for _, args := range [][]string{{"inspect", runID}, {"pending"}, {"chats"}} {
		start := time.Now()
		w.cli.ok(nil, args...)
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("%v took %v while the run was driven", args, took)
		}
	}
	if v, err := w.svc.GetRun(ctx, runID); err != nil || v.State != store.RunRunning {
		t.Fatalf("read in this process: %+v %v", v, err)
	}

	holder.Process.Signal(syscall.SIGKILL)
	<-done
	// No sleep, no timeout: the kernel dropped the lock with the process.
	if w.svc.Busy(runID) {
		t.Fatal("the lease outlived its holder")
	}
	w.checkRecoverable(runID, "after the holder was killed")
	r := w.cli.ok(nil, "resume", runID)
	if str(r.JSON, "run", "state") != store.RunWaitingInput || str(r.JSON, "pending", 0, "requestKey") != "deploy-environment" {
		t.Fatalf("resume: %s", r)
	}
	if n := w.count(`SELECT model_calls FROM runs WHERE id = ?`, runID); n != 1 {
		t.Fatalf("model_calls = %d: the interrupted call was recorded", n)
	}
}
