// Package chat is followup's host: every operation on a chat — messages,
// input requests, drafts, answers, proposals, cancel and stop, lifecycle —
// with its receipts, idempotency and delivery records, and the events the UI
// listens to. The UI, the CLI and the agent's input tools all reach the same
// rules here; chat renders nothing.
package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"followup/forms"
)

// Error codes of DESIGN §4.
const (
	CodeRequestInvalid  = "INPUT_REQUEST_INVALID"
	CodeReplyInvalid    = "INPUT_REPLY_INVALID"
	CodeNotFound        = "NOT_FOUND"
	CodeStaleTarget     = "STALE_TARGET"
	CodeTargetClosed    = "TARGET_CLOSED"
	CodeChatArchived    = "CHAT_ARCHIVED"
	CodeRequestKeyConfl = "REQUEST_KEY_CONFLICT"
	CodeCommandIDConfl  = "COMMAND_ID_CONFLICT"
	CodeLimitExceeded   = "LIMIT_EXCEEDED"
	CodeRunBusy         = "RUN_BUSY"
	CodeInvalidArgument = "INVALID_ARGUMENT"
	CodeProviderFailed  = "PROVIDER_FAILED"
	CodeInternal        = "INTERNAL"
	CodeRunNotResumable = "RUN_NOT_RESUMABLE"
)

// Error is a refused operation. It never consumed or changed anything.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func problemsError(code, msg string, ps []forms.Problem) *Error {
	if ps == nil {
		ps = []forms.Problem{}
	}
	return &Error{Code: code, Message: msg, Details: map[string]any{"problems": ps}}
}

// AsError returns err as an *Error, wrapping anything unexpected as INTERNAL.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// CodeOf returns the code of err, or "" when err is nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}

// ErrorJSON is the failure shape of DESIGN §4.
func ErrorJSON(err error) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"ok": false, "error": AsError(err)})
	return b
}

// OKJSON marshals v (a struct or map) with "ok": true as its first key.
func OKJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return ErrorJSON(err)
	}
	b = bytes.TrimSpace(b)
	switch {
	case len(b) < 2 || b[0] != '{':
		return ErrorJSON(fmt.Errorf("result is not a JSON object"))
	case string(b) == "{}":
		return json.RawMessage(`{"ok":true}`)
	}
	out := make([]byte, 0, len(b)+10)
	out = append(out, `{"ok":true,`...)
	return append(out, b[1:]...)
}
