package chat_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"followup/chat"
	"followup/store"
)

// TestOrphanedOffersOnlyResumableRuns: the UI's "interrupted runs — ctrl+r
// resumes them" lists running runs and waiting runs with an undelivered
// answer or cancellation, whose lease nobody holds, in active chats; and
// Resume drives each one on.
func TestOrphanedOffersOnlyResumableRuns(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	s := w.svc
	deploy := func() (chat.Sent, string) {
		t.Helper()
		sent, err := s.Send(ctx, "", "Check deployment", "")
		if err != nil {
			t.Fatal(err)
		}
		if v, err := s.Drive(ctx, sent.RunID); err != nil || v.State != store.RunWaitingInput {
			t.Fatalf("drive: %+v %v", v, err)
		}
		return sent, w.onlyRequest(sent.RunID)
	}
	answer := func(rq string) {
		t.Helper()
		if _, err := s.Answer(ctx, chat.AnswerInput{RequestID: rq, Values: map[string]any{"environment": "staging"}}); err != nil {
			t.Fatal(err)
		}
	}
	runs := map[string]string{} // case → run id

	waiting, _ := deploy() // waits for the user: not stuck
	runs["waiting"] = waiting.RunID

	answered, rq := deploy() // answered, not yet delivered
	answer(rq)
	runs["answered"] = answered.RunID

	cancelled, rq := deploy() // cancelled, not yet delivered
	if _, err := s.Cancel(ctx, rq, ""); err != nil {
		t.Fatal(err)
	}
	runs["cancelled"] = cancelled.RunID

	fresh, err := s.Send(ctx, "", "Check deployment", "") // running, never driven
	if err != nil {
		t.Fatal(err)
	}
	runs["running"] = fresh.RunID

	held, err := s.Send(ctx, "", "Check deployment", "") // running, driven by a live process
	if err != nil {
		t.Fatal(err)
	}
	runs["held"] = held.RunID
	lease, err := chat.HoldLease(s, held.RunID)
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Release()

	unknown, rq := deploy() // a delivery interrupted by a crash
	if r := w.cli.run(crashAt(chat.CrashDeliveryUnknown), "answer", rq, "--values-json", `{"environment":"production"}`); !r.Killed {
		t.Fatalf("answer: %s", r)
	}
	runs["unknown"] = unknown.RunID

	archived, rq := deploy() // answered, but its chat is archived: cannot be driven
	answer(rq)
	if _, err := s.Archive(ctx, archived.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	runs["archived"] = archived.RunID

	done, rq := deploy() // ended
	answer(rq)
	if v, _ := s.Drive(ctx, done.RunID); v.State != store.RunSucceeded {
		t.Fatalf("done: %s", v.State)
	}
	stopped, _ := deploy()
	if _, err := s.Stop(ctx, stopped.RunID, ""); err != nil {
		t.Fatal(err)
	}

	if got, want := orphanCases(t, s, runs), "answered,cancelled,running,unknown"; got != want {
		t.Fatalf("Orphaned = %s, want %s", got, want)
	}
	wantAfter := map[string]string{"answered": store.RunSucceeded, "cancelled": store.RunSucceeded,
		"running": store.RunWaitingInput, "unknown": store.RunSucceeded}
	for c, state := range wantAfter {
		if v, err := s.Resume(ctx, runs[c]); err != nil || string(v.State) != state {
			t.Errorf("Resume %s: %s %v, want %s", c, v.State, err, state)
		}
	}
	if got := orphanCases(t, s, runs); got != "" {
		t.Fatalf("after resuming, Orphaned = %s", got)
	}
	lease.Release() // the holder dies: its run is offered at once
	if got := orphanCases(t, s, runs); got != "held" {
		t.Fatalf("after the holder let go, Orphaned = %s", got)
	}
}

// orphanCases names the cases Orphaned lists, sorted.
func orphanCases(t *testing.T, s *chat.Service, runs map[string]string) string {
	t.Helper()
	orphans, err := s.Orphaned(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for c, id := range runs {
		byID[id] = c
	}
	var got []string
	for _, o := range orphans {
		c, ok := byID[o.ID]
		if !ok {
			c = "unexpected " + o.ID + " " + string(o.State)
		}
		got = append(got, c)
	}
	sort.Strings(got)
	return strings.Join(got, ",")
}
