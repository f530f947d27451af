package agent

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Bounds of the waits between attempts.
const (
	// maxBackoff caps the exponential backoff.
	maxBackoff = 30 * time.Second
	// maxRetryAfter is the longest Retry-After honoured; a server asking for
	// more gets its error surfaced instead of a silently frozen run.
	maxRetryAfter = time.Minute
)

// WithRetry wraps p so that transient failures (IsTransient: 429, 5xx,
// dropped connections) are tried again, up to attempts calls in all, after
// an exponential backoff from base with jitter, or after the server's
// Retry-After when it sent one. Other errors and ctx cancellation return at
// once; while waiting, cancellation returns ctx.Err().
//
// Streamed text: when an attempt fails after text went to req.OnText, the
// next attempt streams its reply from the start. If req.OnReset is set it is
// called first, and the consumer discards what it showed; if it is not set,
// the call is not retried, so no consumer ever sees text twice.
func WithRetry(p Provider, attempts int, base time.Duration) Provider {
	if attempts < 1 {
		attempts = 1
	}
	return &retrying{p: p, attempts: attempts, base: base}
}

type retrying struct {
	p        Provider
	attempts int
	base     time.Duration
}

// Name implements Provider: the wrapped provider's name.
func (r *retrying) Name() string { return r.p.Name() }

// Complete implements Provider.
func (r *retrying) Complete(ctx context.Context, req Request) (Response, error) {
	streamed := false
	if onText := req.OnText; onText != nil {
		req.OnText = func(delta string) {
			if delta != "" {
				streamed = true
				onText(delta)
			}
		}
	}
	for attempt := 1; ; attempt++ {
		resp, err := r.p.Complete(ctx, req)
		if err == nil || !IsTransient(err) || attempt >= r.attempts || ctx.Err() != nil {
			return resp, err
		}
		if streamed && req.OnReset == nil {
			return resp, err
		}
		wait, ok := r.wait(attempt, err)
		if !ok {
			return resp, err
		}
		if streamed {
			req.OnReset()
			streamed = false
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return Response{}, ctx.Err()
		case <-timer.C:
		}
	}
}

// wait is the pause before the attempt after attempt; ok is false when the
// server asked for longer than maxRetryAfter.
func (r *retrying) wait(attempt int, err error) (time.Duration, bool) {
	var pe *ProviderError
	if errors.As(err, &pe) && pe.RetryAfter > 0 {
		return pe.RetryAfter, pe.RetryAfter <= maxRetryAfter
	}
	d := r.base
	for i := 1; i < attempt && d < maxBackoff; i++ {
		d *= 2
	}
	d = min(d, maxBackoff)
	if d <= 0 {
		return 0, true
	}
	// "Equal jitter": at least half the backoff, so waits still grow, plus
	// a random half, so clients that failed together do not return together.
	half := d / 2
	return half + rand.N(d-half+1), true
}
