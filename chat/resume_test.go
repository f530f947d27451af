package chat

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

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
	defer s.Close()
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
