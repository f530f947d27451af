package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxErrorText bounds a provider message taken from an unstructured body, so
// an HTML error page cannot flood the transcript.
const maxErrorText = 500

// transientStatus reports whether an HTTP status is worth retrying: rate
// limits, timeouts, conflicts and server errors (Anthropic's 529 included).
func transientStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return status >= 500
}

// statusError builds the error for an HTTP failure. msg is the provider's own
// text; the key is scrubbed from it because some servers echo what they got.
func statusError(status int, msg, key string, retryAfter time.Duration) *ProviderError {
	msg = strings.TrimSpace(redact(msg, key))
	msg = cmp.Or(msg, http.StatusText(status))
	return &ProviderError{Status: status, Message: msg, Transient: transientStatus(status), RetryAfter: retryAfter}
}

// transportError maps a failure below HTTP (or a broken stream). ctx wins:
// a cancelled call reports ctx.Err(), not the network error it caused.
func transportError(ctx context.Context, err error, key string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	// The caller's ctx is live, so a deadline came from a client's own
	// request timeout: the server was too slow this time.
	if errors.Is(err, context.DeadlineExceeded) {
		return &ProviderError{Message: "the model server did not answer in time", Transient: true}
	}
	msg := redact(err.Error(), key)
	// A refused connection means nothing listens (Ollama not started):
	// waiting will not help, and the user should hear it at once.
	if errors.Is(err, syscall.ECONNREFUSED) {
		return &ProviderError{Message: "cannot connect: " + msg}
	}
	var ne net.Error
	dropped := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || (errors.As(err, &ne) && ne.Timeout())
	if dropped {
		return &ProviderError{Message: "connection to the model server lost: " + msg, Transient: true}
	}
	return &ProviderError{Message: msg}
}

// bodyMessage extracts the human-readable message from an error body. It
// knows the shapes OpenAI-compatible servers use: {"error":{"message":…}},
// {"error":"…"} (Ollama), {"message":…} and {"detail":…} (vLLM, FastAPI).
func bodyMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var inner struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			return inner.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case v.Message != "":
			return v.Message
		case json.Unmarshal(v.Detail, &s) == nil && s != "":
			return s
		case len(v.Detail) > 0:
			return string(v.Detail)
		}
	}
	text := strings.TrimSpace(string(body))
	if len(text) > maxErrorText {
		text = text[:maxErrorText] + "…"
	}
	return text
}

// retryAfter reads the wait a server asks for: retry-after-ms (OpenAI,
// Anthropic) or Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// redact removes the API key from text that may reach the screen or a log.
func redact(text, key string) string {
	if len(key) < 4 {
		return text
	}
	return strings.ReplaceAll(text, key, "[redacted]")
}
