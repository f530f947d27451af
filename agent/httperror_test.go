package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestBodyMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 2*maxErrorText)
	cases := map[string]string{
		`{"error":{"message":"Invalid model","type":"invalid_request_error"}}`: "Invalid model",
		`{"error":"model not found"}`:                                          "model not found",
		`{"object":"error","message":"vLLM says no","code":400}`:               "vLLM says no",
		`{"detail":"Not Found"}`:                                               "Not Found",
		`{"detail":[{"msg":"field required"}]}`:                                `[{"msg":"field required"}]`,
		"  plain text\n":                                                       "plain text",
		long:                                                                   long[:maxErrorText] + "…",
	}
	for body, want := range cases {
		if got := bodyMessage([]byte(body)); got != want {
			t.Errorf("bodyMessage(%.40q) = %q, want %q", body, got, want)
		}
	}
}

func TestRetryAfterHeader(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name, value string
		want        time.Duration
	}{
		{"Retry-After", "2", 2 * time.Second},
		{"Retry-After", "0.5", 500 * time.Millisecond},
		{"Retry-After", now.Add(9 * time.Second).Format(http.TimeFormat), 9 * time.Second},
		{"Retry-After", now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"Retry-After", "soon", 0},
		{"Retry-After-Ms", "250", 250 * time.Millisecond},
		{"X-Other", "5", 0},
	}
	for _, c := range cases {
		h := http.Header{}
		h.Set(c.name, c.value)
		if got := retryAfter(h, now); got != c.want {
			t.Errorf("%s: %s = %v, want %v", c.name, c.value, got, c.want)
		}
	}
}

func TestTransientStatus(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]bool{400: false, 401: false, 403: false, 404: false, 408: true, 409: true, 422: false, 429: true, 500: true, 502: true, 529: true} {
		if got := transientStatus(status); got != want {
			t.Errorf("transientStatus(%d) = %v", status, got)
		}
	}
}

func TestTransportError(t *testing.T) {
	t.Parallel()
	live := context.Background()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name      string
		ctx       context.Context
		err       error
		transient bool
	}{
		{"reset", live, &net.OpError{Op: "read", Err: syscall.ECONNRESET}, true},
		{"eof", live, fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{"client timeout", live, fmt.Errorf("post: %w", context.DeadlineExceeded), true},
		{"refused", live, &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, false},
		{"other", live, errors.New("unsupported protocol scheme"), false},
	}
	for _, c := range cases {
		var pe *ProviderError
		if err := transportError(c.ctx, c.err, ""); !errors.As(err, &pe) || pe.Transient != c.transient {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if err := transportError(cancelled, io.ErrUnexpectedEOF, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled call must report ctx.Err(), got %v", err)
	}
}
