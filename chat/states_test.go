package chat

import (
	"testing"
	"time"
)

// States read as words ("the task failed", not "the task is failed"), and
// the predicates front ends ask.
func TestStatesInWords(t *testing.T) {
	t.Parallel()
	for s, want := range map[RunState]string{RunRunning: "is running", RunWaitingInput: "is waiting for your answer",
		RunSucceeded: "succeeded", RunFailed: "failed", RunStopped: "was stopped"} {
		if got := "the task " + s.Words(); got != "the task "+want {
			t.Errorf("%s: %q", s, got)
		}
		if s.Active() != (s == RunRunning || s == RunWaitingInput) || s.Final() == s.Active() {
			t.Errorf("%s: active %v, final %v", s, s.Active(), s.Final())
		}
	}
	for s, want := range map[RequestState]string{RequestPending: "is waiting for its answer", RequestAnswered: "was answered",
		RequestCancelled: "was cancelled", RequestExpired: "expired"} {
		if got := s.Words(); got != want || s.Open() != (s == RequestPending) {
			t.Errorf("%s: %q, open %v", s, got, s.Open())
		}
	}
	if !ChatArchived.Archived() || ChatActive.Archived() {
		t.Error("Archived")
	}
}

// A deadline shows its date when it is not today.
func TestDeadlineWords(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 23, 50, 0, 0, time.Local)
	for at, want := range map[time.Time]string{
		now.Add(10 * time.Minute):  "Dec 3 00:00",
		now.Add(-50 * time.Minute): "23:00",
		now.AddDate(1, 0, 0):       "Dec 2 2027 23:50",
	} {
		if got := DeadlineWords(at, now); got != want {
			t.Errorf("%v: %q, want %q", at, got, want)
		}
	}
}
