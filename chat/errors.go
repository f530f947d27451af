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
	"maps"
	"unicode/utf8"

	"followup/forms"
	"followup/store"
)

// Error codes of docs/input-requests.md.
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
	// CodeDatabaseReadOnly: the database cannot be written by this process
	// (its file's or directory's permissions, a read-only mount). Reads
	// still work; nothing was changed.
	CodeDatabaseReadOnly = "DATABASE_READ_ONLY"
	// CodeDatabaseUnavailable: the database could not be opened — not a
	// regular file, not followup's, unreadable — and was left untouched;
	// or its file was removed or replaced at its path while open, and
	// nothing more is written to it.
	CodeDatabaseUnavailable = "DATABASE_UNAVAILABLE"
	// CodeDatabaseBusy: another process held the database's write lock for
	// longer than followup waits (store.BusyTimeout); the change was not
	// made and can be tried again.
	CodeDatabaseBusy = "DATABASE_BUSY"
	// CodeDatabaseCorrupt: SQLite found the database file damaged (pages
	// overwritten, cut short). The step changed nothing; what can still be
	// read may be recovered from a copy.
	CodeDatabaseCorrupt = "DATABASE_CORRUPT"
)

// Error is a refused operation. It never consumed or changed anything.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// errorf builds an error whose message quotes what it was given: each string
// argument (an id, a key, a name — perhaps the caller's) is cut to maxEcho
// characters first.
func errorf(code, format string, args ...any) *Error {
	cut := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok {
			a = clip(s, maxEcho)
		}
		cut[i] = a
	}
	return bounded(&Error{Code: code, Message: fmt.Sprintf(format, cut...)})
}

func problemsError(code, msg string, ps []forms.Problem) *Error {
	if ps == nil {
		ps = []forms.Problem{}
	}
	return bounded(&Error{Code: code, Message: msg, Details: map[string]any{"problems": ps}})
}

// AsError returns err as an *Error, wrapping anything unexpected as INTERNAL
// (a database that cannot be opened as DATABASE_UNAVAILABLE, one this
// process cannot write as DATABASE_READ_ONLY, one another process kept
// locked past the busy timeout as DATABASE_BUSY, even while opening it, a
// damaged file as DATABASE_CORRUPT). What it
// returns is bounded (see bounded): every surface — a tool result to the
// model, the CLI's text and JSON, the screen — shows errors through it.
func AsError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return bounded(e)
	}
	if ro, ok := errors.AsType[*store.ReadOnlyError](err); ok {
		return bounded(&Error{Code: CodeDatabaseReadOnly, Message: ro.Error(), Details: map[string]any{"path": ro.Path}})
	}
	// Busy comes before the file's other troubles: a database another
	// process held while this one opened it is busy, not unavailable.
	oe, opening := errors.AsType[*store.OpenError](err)
	if store.IsBusy(err) {
		e := &Error{Code: CodeDatabaseBusy, Message: busyMessage, Details: map[string]any{"cause": clip(err.Error(), maxMessage)}}
		if opening {
			e.Details["path"] = oe.Path
		}
		return e
	}
	if gone, ok := errors.AsType[*store.GoneError](err); ok {
		return bounded(&Error{Code: CodeDatabaseUnavailable, Message: gone.Error(), Details: map[string]any{"path": gone.Path}})
	}
	if store.IsCorrupt(err) {
		return corruptError(err)
	}
	if opening {
		return bounded(&Error{Code: CodeDatabaseUnavailable, Message: oe.Error(), Details: map[string]any{"path": oe.Path}})
	}
	return bounded(&Error{Code: CodeInternal, Message: err.Error()})
}

// corruptError says that the file is damaged, that this step changed
// nothing and what to do, with SQLite's words in details.cause.
func corruptError(err error) *Error {
	e := &Error{Code: CodeDatabaseCorrupt, Details: map[string]any{"cause": clip(err.Error(), maxMessage)}}
	var oe *store.OpenError
	var ce *store.CorruptError
	path := ""
	switch {
	case errors.As(err, &ce):
		path = ce.Path
	case errors.As(err, &oe):
		path = oe.Path
	}
	// Without a path (a single read outside a transaction) the file is the
	// one --db or FOLLOWUP_DB names, and the steps say so in words.
	file, copyAway, steps := "the database file", "the file --db or FOLLOWUP_DB names, to a name ending .damaged",
		" with sqlite3's .recover into a new file, and use that file"
	if path != "" {
		e.Details["path"] = path
		file, copyAway = "the database file "+path, "cp "+path+" "+path+".damaged"
		steps = ": sqlite3 " + path + ".damaged .recover | sqlite3 recovered.db, and use that file (--db or FOLLOWUP_DB)"
	}
	e.Message = clip(file+" is damaged (SQLite found pages in it that are not what it wrote); this step changed nothing. "+
		"Copy it away before anything else writes to it ("+copyAway+"), then recover what it still holds"+steps, maxMessage)
	return e
}

var busyMessage = fmt.Sprintf("another process held the database for %d s, longer than followup waits for it; nothing was changed by this step, try again",
	int(store.BusyTimeout.Seconds()))

// Bounds of what an error says (docs/behaviour.md). An error may go back to the
// model as a tool result, so however hostile the input, what it says stays
// small: the first MaxProblems problems, each cut short, with the number of
// the others in details.more and in the message; any quoted id or name cut
// with an ellipsis.
const (
	MaxProblems       = 50
	maxEcho           = 128 // characters of an id, key or name quoted in a message: a whole requestKey
	maxMessage        = 1024
	maxProblemPath    = 256
	maxProblemMessage = 512
)

// bounded returns e within the bounds: e itself when it already is, else a
// copy (e may be shared, as a stored receipt's error is).
func bounded(e *Error) *Error {
	ps, _ := e.Details["problems"].([]forms.Problem)
	more := formsLeftOut(ps)
	if more > 0 {
		ps = ps[:len(ps)-1]
	}
	fits := len(e.Message) <= maxMessage && more == 0 && len(ps) <= MaxProblems
	for i := 0; fits && i < len(ps); i++ {
		fits = len(ps[i].Path) <= maxProblemPath && len(ps[i].Message) <= maxProblemMessage
	}
	if fits {
		return e
	}
	out := &Error{Code: e.Code, Message: e.Message, Details: maps.Clone(e.Details)}
	if _, ok := e.Details["problems"].([]forms.Problem); ok {
		if len(ps) > MaxProblems {
			more += len(ps) - MaxProblems
			ps = ps[:MaxProblems]
		}
		kept := make([]forms.Problem, len(ps))
		for i, p := range ps {
			kept[i] = forms.Problem{Path: clip(p.Path, maxProblemPath), Message: clip(p.Message, maxProblemMessage)}
		}
		out.Details["problems"] = kept
		if more > 0 {
			out.Details["more"] = more
			out.Message = fmt.Sprintf("%s (%d problems; the first %d are listed)", clip(out.Message, maxMessage-64),
				len(kept)+more, len(kept))
		}
	}
	out.Message = clip(out.Message, maxMessage)
	return out
}

// formsLeftOut reads the count in the last problem forms adds when it stops
// listing (forms.Problem.More), or 0 when there is none.
func formsLeftOut(ps []forms.Problem) int {
	if len(ps) == 0 || ps[len(ps)-1].Path != "" {
		return 0
	}
	return ps[len(ps)-1].More
}

// clip cuts s to at most n characters, ending it with an ellipsis when cut.
func clip(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// CodeOf returns the code of err, or "" when err is nil.
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}

// ErrorJSON is the failure shape of docs/input-requests.md.
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
