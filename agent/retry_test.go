package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"followup/agent/agenttest"
)

// tiny keeps backoffs short so the suite stays fast.
const tiny = time.Millisecond

var helloStream = []string{openAIText("Hello"), openAIText(" world"), agenttest.OpenAIChunk(`{}`, "stop"), agenttest.OpenAIDone}

func TestRetry429ThenSuccessStreamsOnce(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t,
		agenttest.JSONReply(429, `{"error":{"message":"slow down"}}`, "Retry-After-Ms", "5"),
		sseReply(helloStream...))
	var sink textSink
	p := WithRetry(NewOpenAI(f.URL, "", "m"), 3, tiny)
	resp, err := p.Complete(context.Background(), Request{OnText: sink.onText, OnReset: sink.onReset})
	if err != nil {
		t.Fatal(err)
	}
	if f.Calls() != 2 || resp.Message.Content != "Hello world" || sink.String() != "Hello world" || sink.resets != 0 {
		t.Fatalf("calls %d, content %q, streamed %q, resets %d", f.Calls(), resp.Message.Content, sink.String(), sink.resets)
	}
	if p.Name() != "openai" {
		t.Errorf("Name = %q", p.Name())
	}
}

func TestRetryDroppedStreamResetsText(t *testing.T) {
	t.Parallel()
	for _, prov := range []string{"openai", "anthropic"} {
		var partial, full []string
		var p Provider
		if prov == "openai" {
			partial, full = []string{openAIText("Hel")}, helloStream
		} else {
			partial = slices.Concat([]string{anthropicStart()}, anthropicTextBlock(0, "Hel"))
			full = slices.Concat([]string{anthropicStart()}, anthropicTextBlock(0, "Hello", " world"), anthropicStop("end_turn"))
		}
		f := agenttest.New(t, droppedReply(partial...), sseReply(full...))
		if prov == "openai" {
			p = NewOpenAI(f.URL, "", "m")
		} else {
			p = NewAnthropic(f.URL, "", "m")
		}
		var sink textSink
		resp, err := WithRetry(p, 3, tiny).Complete(context.Background(), Request{OnText: sink.onText, OnReset: sink.onReset})
		if err != nil {
			t.Fatalf("%s: %v", prov, err)
		}
		// The consumer saw "Hel", was told to reset, then saw the full reply once.
		if f.Calls() != 2 || sink.resets != 1 || sink.String() != "Hello world" || resp.Message.Content != "Hello world" {
			t.Errorf("%s: calls %d, resets %d, streamed %q, content %q", prov, f.Calls(), sink.resets, sink.String(), resp.Message.Content)
		}
	}
}

func TestRetryWithoutResetDoesNotRepeatText(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, droppedReply(openAIText("Hel")), sseReply(helloStream...))
	var sink textSink
	_, err := WithRetry(NewOpenAI(f.URL, "", "m"), 3, tiny).Complete(context.Background(), Request{OnText: sink.onText})
	if !IsTransient(err) || f.Calls() != 1 || sink.String() != "Hel" {
		t.Fatalf("err %v, calls %d, streamed %q: without OnReset a streamed call must not be retried", err, f.Calls(), sink.String())
	}
}

func TestRetryGivesUpAfterAttempts(t *testing.T) {
	t.Parallel()
	e500 := agenttest.JSONReply(500, `{"error":{"message":"boom"}}`)
	f := agenttest.New(t, e500, e500, e500)
	_, err := WithRetry(NewOpenAI(f.URL, "", "m"), 3, tiny).Complete(context.Background(), Request{})
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Status != 500 || pe.Message != "boom" || f.Calls() != 3 {
		t.Fatalf("err %v, calls %d", err, f.Calls())
	}
}

func TestRetryNeverRetriesRefusals(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`))
	_, err := WithRetry(NewAnthropic(f.URL, "bad", "m"), 5, tiny).Complete(context.Background(), Request{OnText: func(string) {}})
	var pe *ProviderError
	if !errors.As(err, &pe) || pe.Transient || pe.Status != 401 || pe.Message != "invalid x-api-key" || f.Calls() != 1 {
		t.Fatalf("err %v, calls %d", err, f.Calls())
	}
}

// scripted is a Provider that fails with the given errors, then succeeds.
type scripted struct {
	errs  []error
	calls atomic.Int32
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Complete(ctx context.Context, req Request) (Response, error) {
	n := int(s.calls.Add(1)) - 1
	if n < len(s.errs) {
		return Response{}, s.errs[n]
	}
	return Response{Message: Message{Role: RoleAssistant, Content: "done"}}, nil
}

func TestRetryStopsOnCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	s := &scripted{errs: []error{&ProviderError{Status: 503, Transient: true}}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	start := time.Now()
	_, err := WithRetry(s, 3, 10*time.Second).Complete(ctx, Request{})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second || s.calls.Load() != 1 {
		t.Fatalf("err %v after %v, calls %d", err, time.Since(start), s.calls.Load())
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	s := &scripted{errs: []error{&ProviderError{Status: 429, Transient: true, RetryAfter: 60 * time.Millisecond}}}
	start := time.Now()
	resp, err := WithRetry(s, 2, tiny).Complete(context.Background(), Request{})
	if err != nil || resp.Message.Content != "done" {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Errorf("retried after %v, before the server's Retry-After", d)
	}

	// A wait longer than maxRetryAfter is not sat out: the error surfaces.
	long := &scripted{errs: []error{&ProviderError{Status: 429, Message: "quota", Transient: true, RetryAfter: time.Hour}}}
	if _, err := WithRetry(long, 3, tiny).Complete(context.Background(), Request{}); err == nil || long.calls.Load() != 1 {
		t.Errorf("err %v, calls %d", err, long.calls.Load())
	}
}

func TestRetryPassesOtherErrorsThrough(t *testing.T) {
	t.Parallel()
	plain := errors.New("not a provider error")
	s := &scripted{errs: []error{plain}}
	if _, err := WithRetry(s, 3, tiny).Complete(context.Background(), Request{}); err != plain || s.calls.Load() != 1 {
		t.Fatalf("err %v, calls %d", err, s.calls.Load())
	}
	// attempts below one still make the call once.
	one := &scripted{errs: []error{&ProviderError{Transient: true}}}
	if _, err := WithRetry(one, 0, tiny).Complete(context.Background(), Request{}); err == nil || one.calls.Load() != 1 {
		t.Fatalf("err %v, calls %d", err, one.calls.Load())
	}
}

func TestRetryBackoffGrowsWithJitter(t *testing.T) {
	t.Parallel()
	r := &retrying{base: 100 * time.Millisecond}
	transient := &ProviderError{Transient: true}
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 20: maxBackoff} {
		for range 50 {
			d, ok := r.wait(attempt, transient)
			if !ok || d < want/2 || d > want {
				t.Fatalf("attempt %d: wait %v, want in [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

func TestRetryErrorsNeverCarryKeys(t *testing.T) {
	t.Parallel()
	f := agenttest.New(t, agenttest.JSONReply(401, `{"error":{"message":"bad key sk-live-abcdef"}}`))
	_, err := WithRetry(NewOpenAI(f.URL, "sk-live-abcdef", "m"), 2, tiny).Complete(context.Background(), Request{})
	if err == nil || strings.Contains(err.Error(), "sk-live-abcdef") {
		t.Fatalf("err = %v", err)
	}
}
