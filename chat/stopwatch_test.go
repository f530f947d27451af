package chat_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"followup/chat"
)

// TestAStopFromAnotherProcessEndsTheModelCall: process A answers and drives
// the run into a model call that never ends by itself; process B stops the
// run (or archives its chat). A notices, cancels its call and frees the
// lease at once instead of waiting on the model.
func TestAStopFromAnotherProcessEndsTheModelCall(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"stop", "archive"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			model := newFakeModel(t)
			db := filepath.Join(t.TempDir(), "followup.db")
			cli := &fuCLI{t: t, db: db, env: model.env("sk-test")}
			asked := cli.ok(nil, "ask", "Deploy the release")
			runID, chatID := str(asked.JSON, "runId"), str(asked.JSON, "chatId")
			reqID := str(asked.JSON, "pending", 0, "id")
			if str(asked.JSON, "state") != "waiting_input" || reqID == "" {
				t.Fatalf("ask: %s", asked)
			}

			model.Then(model.Stall()) // the model call after the answer never ends by itself
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			a, stdout, stderr := cli.command(ctx, nil, "answer", reqID, "--values-json", `{"environment":"staging"}`)
			if err := a.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- a.Wait() }()
			select {
			case <-model.Stalled():
			case err := <-exited:
				t.Fatalf("A ended before its model call: %v\n%s%s", err, stdout, stderr)
			case <-time.After(30 * time.Second):
				t.Fatal("A never called the model")
			}

			target := runID
			if how == "archive" {
				target = chatID
			}
			cli.ok(nil, how, target)
			since := time.Now()
			var err error
			select {
			case err = <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("A still holds its model call 20 s after the %s", how)
			}
			t.Logf("A ended %v after the %s returned", time.Since(since).Round(time.Millisecond), how)
			r := cli.result(err, a, stdout, stderr)
			if r.Killed {
				t.Fatalf("A: %s", r)
			}

			s, err := chat.Open(context.Background(), chat.Options{DBPath: db})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Busy(runID) {
				t.Fatal("A's lease is still held after it ended")
			}
			if v, err := s.GetRun(context.Background(), runID); err != nil || (how == "stop" && v.State != "stopped") {
				t.Fatalf("run: %+v %v", v, err)
			}
		})
	}
}
