package chat

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"followup/agent"
	"followup/store"
)

// refusingOnce refuses its next call (as a provider does with a bad key)
// while armed, and otherwise is the offline demo agent.
type refusingOnce struct{ armed atomic.Bool }

func (p *refusingOnce) Name() string { return "offline" }

func (p *refusingOnce) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	if p.armed.CompareAndSwap(true, false) {
		return agent.Response{}, &agent.ProviderError{Status: 401, Message: "invalid api key"}
	}
	return agent.Offline{}.Complete(ctx, req)
}

// A run failed by a refused call keeps its requests and answers as they
// were; once the cause is fixed, resume delivers the answer and finishes.
func TestResumeAfterRefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &refusingOnce{}
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "f.db"), Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	sent, req := fxDeploy(t, s)
	p.armed.Store(true)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || run.State != store.RunFailed || run.Error == "" {
		t.Fatalf("after refusal: %+v, %v", run, err)
	}
	v, _ := s.Request(ctx, req.ID)
	if v.State != store.ReqAnswered || v.Answer == nil {
		t.Fatalf("request after refusal: %+v", v)
	}
	run, err = s.Resume(ctx, sent.RunID)
	if err != nil || run.State != store.RunSucceeded {
		t.Fatalf("resume: %+v, %v", run, err)
	}
	v, _ = s.Request(ctx, req.ID)
	if len(v.Deliveries) != 1 || v.Deliveries[0].State != store.DeliveryDelivered {
		t.Fatalf("deliveries: %+v", v.Deliveries)
	}
}

// gated holds its first call until released, then answers as the demo.
type gated struct {
	calls   atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (p *gated) Name() string { return "offline" }

func (p *gated) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	if p.calls.Add(1) == 1 {
		close(p.entered)
		<-p.release
	}
	return agent.Offline{}.Complete(ctx, req)
}

// A message sent while the model is answering joins the run, and the model
// answers it after its current turn: nothing the user says is dropped.
func TestMessageDuringModelCallIsAnswered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &gated{entered: make(chan struct{}), release: make(chan struct{})}
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "m.db"), Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	first, err := s.Send(ctx, "", "write a poem", "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan RunView)
	go func() {
		v, _ := s.Drive(ctx, first.RunID)
		done <- v
	}()
	<-p.entered
	second, err := s.Send(ctx, first.ChatID, "Check deployment", "")
	if err != nil || second.RunID != first.RunID {
		t.Fatalf("second message: %+v, %v", second, err)
	}
	close(p.release)
	v := <-done
	if v.ModelCalls != 2 {
		t.Fatalf("model calls = %d, want 2 (the second message was not answered): %+v", v.ModelCalls, v)
	}
	ms, _ := s.store.History(ctx, s.reader(), first.RunID)
	if last := ms[len(ms)-1]; last.Role == store.RoleUser {
		t.Fatalf("the history ends with an unanswered message: %+v", last)
	}
}

// Only a chat's newest task may be resumed: one active run per chat.
func TestResumeOnlyTheNewestRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &refusingOnce{}
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "n.db"), Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	p.armed.Store(true)
	first, _ := s.Send(ctx, "", "write a poem", "")
	if v, _ := s.Drive(ctx, first.RunID); v.State != store.RunFailed {
		t.Fatalf("first run %s", v.State)
	}
	second, _ := s.Send(ctx, first.ChatID, "Check deployment", "")
	if second.RunID == first.RunID {
		t.Fatal("a message after a failed run joined it")
	}
	if _, err := s.Resume(ctx, first.RunID); CodeOf(err) != CodeRunNotResumable {
		t.Fatalf("resume of the older run: %v", err)
	}
}

// The agent's tools reach only the questions of their own chat.
func TestToolsStayInTheirChat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, reqB := fxDeploy(t, s)
	sentA, _ := fxDeploy(t, s)
	cc := agent.CallContext{ChatID: sentA.ChatID, RunID: sentA.RunID, ToolCallID: "call_z"}
	args, _ := json.Marshal(map[string]any{"requestId": reqB.ID, "values": map[string]any{"environment": "staging"}})
	idOnly, _ := json.Marshal(map[string]any{"requestId": reqB.ID})
	tools := inputTools{s}
	for name, res := range map[string]json.RawMessage{
		"cancel": tools.Cancel(ctx, cc, idOnly), "resolve": tools.Resolve(ctx, cc, args),
		"replace": tools.Replace(ctx, cc, idOnly), "read": tools.ReadAnswer(ctx, cc, idOnly),
	} {
		var out struct {
			OK    bool   `json:"ok"`
			Error *Error `json:"error"`
		}
		json.Unmarshal(res, &out)
		if out.OK || out.Error == nil || out.Error.Code != CodeNotFound {
			t.Errorf("%s on another chat's request: %s", name, res)
		}
	}
	if v, _ := s.Request(ctx, reqB.ID); v.State != store.ReqPending {
		t.Fatalf("the other chat's request changed: %s", v.State)
	}
}

// echo answers every call in plain text, holding its first call until
// released: a model that never asks anything.
type echo struct{ gated }

func (p *echo) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	if p.calls.Add(1) == 1 {
		close(p.entered)
		<-p.release
	}
	last := req.Messages[len(req.Messages)-1]
	return agent.Response{Message: agent.Message{Role: agent.RoleAssistant, Content: "re: " + last.Content}}, nil
}

func TestMessageDuringFinalAnswerIsAnswered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &echo{gated{entered: make(chan struct{}), release: make(chan struct{})}}
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "e.db"), Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	first, _ := s.Send(ctx, "", "first question", "")
	done := make(chan RunView)
	go func() {
		v, _ := s.Drive(ctx, first.RunID)
		done <- v
	}()
	<-p.entered
	if _, err := s.Send(ctx, first.ChatID, "second question", ""); err != nil {
		t.Fatal(err)
	}
	close(p.release)
	select {
	case v := <-done:
		if v.State != store.RunSucceeded || v.ModelCalls != 2 || v.Reply != "re: second question" {
			t.Fatalf("run = %+v", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the drive never settled")
	}
}

// A run that succeeded or was stopped has nothing to resume: resume says so
// with TARGET_CLOSED, as stop does, and changes nothing.
func TestResumeOfAnEndedRunIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "e.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	done, req := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Drive(ctx, done.RunID); err != nil || v.State != store.RunSucceeded {
		t.Fatalf("drive: %+v %v", v, err)
	}
	stopped, _ := fxDeploy(t, s)
	if _, err := s.Stop(ctx, stopped.RunID, ""); err != nil {
		t.Fatal(err)
	}
	for runID, state := range map[string]string{done.RunID: store.RunSucceeded, stopped.RunID: store.RunStopped} {
		before, _ := s.GetRun(ctx, runID)
		v, err := s.Resume(ctx, runID)
		if CodeOf(err) != CodeTargetClosed || AsError(err).Details["state"] != state || string(v.State) != state {
			t.Errorf("resume of a %s run: %+v, %v", state, v, err)
		}
		if after, _ := s.GetRun(ctx, runID); after.ModelCalls != before.ModelCalls || string(after.State) != state {
			t.Errorf("resume changed the %s run: %+v", state, after)
		}
	}
}

// TestRetryableListsWhatCtrlRMovesOn: a chat whose newest run failed offers
// it for a retry; a run being driven by a live process is not offered; an
// interrupted run (an answer recorded, never delivered) is; other chats'
// runs, an archived chat's and a finished chat's are not.
func TestRetryableListsWhatCtrlRMovesOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &refusingOnce{}
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "f.db"), Provider: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	ids := func(rs []RunView, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}

	failed, req := fxDeploy(t, s)
	p.armed.Store(true)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	if run, _ := s.Drive(ctx, failed.RunID); run.State != store.RunFailed {
		t.Fatalf("run = %s", run.State)
	}
	if got := ids(s.Retryable(ctx, failed.ChatID)); len(got) != 1 || got[0] != failed.RunID {
		t.Fatalf("a failed run: %v", got)
	}
	lease, err := HoldLease(s, failed.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(s.Retryable(ctx, failed.ChatID)); len(got) != 0 {
		t.Fatalf("a run a live process drives is offered: %v", got)
	}
	lease.Release()

	interrupted, req2 := fxDeploy(t, s)
	if _, err := s.Answer(ctx, AnswerInput{RequestID: req2.ID, Values: map[string]any{"environment": "production"}}); err != nil {
		t.Fatal(err)
	}
	if got := ids(s.Retryable(ctx, interrupted.ChatID)); len(got) != 1 || got[0] != interrupted.RunID {
		t.Fatalf("an interrupted run: %v", got)
	}
	if got := ids(s.Retryable(ctx, failed.ChatID)); len(got) != 2 || got[0] != interrupted.RunID || got[1] != failed.RunID {
		t.Fatalf("another chat's interrupted run, then this chat's failed one: %v", got)
	}
	if got := ids(s.Retryable(ctx, "")); len(got) != 1 || got[0] != interrupted.RunID {
		t.Fatalf("from a new chat, the interrupted runs: %v", got)
	}
	if _, err := s.Archive(ctx, interrupted.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if got := ids(s.Retryable(ctx, interrupted.ChatID)); len(got) != 0 {
		t.Fatalf("an archived chat's run is offered: %v", got)
	}
	if _, err := s.Resume(ctx, failed.RunID); err != nil {
		t.Fatal(err)
	}
	if got := ids(s.Retryable(ctx, failed.ChatID)); len(got) != 0 {
		t.Fatalf("after the retry: %v", got)
	}
	if _, err := s.Retryable(ctx, "ch_missing"); CodeOf(err) != CodeNotFound {
		t.Fatalf("a missing chat: %v", err)
	}
}
