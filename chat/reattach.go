package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"followup/store"
)

// A question outlives its connection (docs/mcp-serve.md#sessions): when
// `followup mcp serve` dies or restarts, its client comes back as a new
// session. One that asks again with the same requestKey and arguments,
// within the question's lifetime, takes back the question of its earlier
// session — the same id, in the same chat, with the user's draft, or with
// the answer the user already confirmed. An answer the agent never read
// waits for it that long; only then is its delivery failed.

// CodeSessionEnded is a request id of an earlier, ended session of the
// same client: the error says how to take the question back.
const CodeSessionEnded = "SESSION_ENDED"

// serveLifetime is how long a question without expiresAt may be taken
// back after it was asked.
const serveLifetime = 24 * time.Hour

// lifetimeEnd is when r can no longer be taken back: its expiresAt, else
// serveLifetime after it was asked.
func lifetimeEnd(r store.Request) int64 {
	if r.ExpiresAt.Valid {
		return r.ExpiresAt.Int64
	}
	return r.CreatedAt + serveLifetime.Milliseconds()
}

// reattach opens nothing: it gives the session the question its client
// asked with the same requestKey and arguments in an ended session, when
// there is one to take back (ok false otherwise: the request is opened as
// usual). A question that expired only because that session ended is
// pending again. hash is canonicalHash("", raw); the sessions of a killed
// server have been ended already (expireDue).
func (ss *ServeSession) reattach(ctx context.Context, raw json.RawMessage, hash string) (res OpenResult, ok bool, err error) {
	var a struct {
		RequestKey string `json:"requestKey"`
	}
	if json.Unmarshal(raw, &a) != nil || a.RequestKey == "" {
		return res, false, nil
	}
	// Usually there is nothing to take back: a read says so, without
	// taking the write lock.
	if _, err := ss.s.store.EndedSessionRequest(ctx, ss.s.reader(), ss.client.Name, ss.client.Key, a.RequestKey, hash); errors.Is(err, store.ErrNotFound) {
		return res, false, nil
	}
	var made *store.Session
	var lease *store.Lease
	var r store.Request
	err = ss.s.write(ctx, func(tx *txn) error {
		if ss.row != nil {
			if _, err := ss.s.store.SessionRequestByKey(ctx, tx, ss.row.ID, a.RequestKey); !errors.Is(err, store.ErrNotFound) {
				return err // its own request: the usual retry
			}
		}
		r, err = ss.s.store.EndedSessionRequest(ctx, tx, ss.client.Name, ss.client.Key, a.RequestKey, hash)
		if errors.Is(err, store.ErrNotFound) || err == nil && lifetimeEnd(r) <= ss.s.nowMS() {
			return nil
		}
		if err != nil {
			return err
		}
		if c, err := ss.s.store.GetChat(ctx, tx, r.ChatID); err != nil || c.State == store.ChatArchived {
			return err // put away by the user: asked anew
		}
		row, err := ss.current(ctx, tx)
		if err != nil {
			return err
		}
		if row == nil {
			if row, lease, err = ss.create(ctx, tx, r.ChatID); err != nil {
				return err
			}
			made = row
		}
		if err := ss.s.store.MoveRequest(ctx, tx, r.ID, row.ID); err != nil {
			return err
		}
		if r.State == store.ReqExpired && r.ClosedReason == ReasonDisconnected {
			if err := ss.s.mayAsk(ctx, tx, &asker{session: row}); err != nil {
				return err
			}
			r.State, r.ClosedReason, r.ClosedAt, r.UpdatedAt = store.ReqPending, "", sql.NullInt64{}, ss.s.nowMS()
			if err := ss.s.saveRequest(ctx, tx, r, nil); err != nil {
				return err
			}
		}
		ok = true
		tx.emit(requestEvent(r))
		res, err = ss.s.openResult(ctx, tx, r)
		return err
	})
	if err != nil || !ok {
		lease.Release()
		return res, false, err
	}
	if made != nil {
		ss.adopt(made, lease)
	}
	ss.asked[r.ID] = true
	return res, true, nil
}

// endedElsewhere is the SESSION_ENDED error of r when an ended session of
// this session's client asked it, else nil.
func (ss *ServeSession) endedElsewhere(ctx context.Context, r store.Request) error {
	if !r.SessionID.Valid {
		return nil
	}
	if ss.s.expireDue(ctx) != nil { // a session of a killed server ends first
		return nil
	}
	sess, err := ss.s.store.GetSession(ctx, ss.s.reader(), r.SessionID.String)
	if err != nil || sess.State != store.SessionEnded || sess.ClientName != ss.client.Name || sess.ClientKey != ss.client.Key {
		return nil
	}
	return &Error{Code: CodeSessionEnded, Message: fmt.Sprintf(
		"request %s was asked in an earlier session of this client, which has ended: call input_request again with the same requestKey (%q) and the same arguments to take it back, with the user's draft or answer",
		r.ID, r.RequestKey), Details: map[string]any{"requestKey": r.RequestKey}}
}

// failLapsedUnread fails the deliveries no agent read of questions whose
// session has ended and whose lifetime has passed: nobody can take them
// back now. A start of followup does it.
func (s *Service) failLapsedUnread(ctx context.Context) error {
	if s.db.ReadOnly() != "" {
		return nil
	}
	lapsed, err := s.store.LapsedUnread(ctx, s.reader(), serveLifetime.Milliseconds(), s.nowMS())
	if err != nil || len(lapsed) == 0 {
		return err
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		return s.setDeliveries(ctx, tx, lapsed, func(d *store.Delivery) bool {
			d.State, d.LastError = store.DeliveryFailed, "the MCP session ended before the agent read it, and its client did not come back for it in time"
			return true
		})
	})
}

// DefaultServeQuietAfter is how long a serve session with a question
// waiting may go without a call from its client before the question shows
// as "its client may be gone": an agent waiting calls input_wait at least
// every 50 seconds.
const DefaultServeQuietAfter = 5 * time.Minute

// touchEvery bounds how often a session's activity is written: a call
// within it of the last write counts as written.
const touchEvery = 30 * time.Second

// active records that the session's client called a tool.
func (ss *ServeSession) active(ctx context.Context) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	now := ss.s.nowMS()
	if ss.row == nil || now-ss.touched < touchEvery.Milliseconds() {
		return
	}
	ss.touched = now
	ss.s.db.Write(ctx, func(tx store.Handle) error { return ss.s.store.TouchSession(ctx, tx, ss.row.ID, now) })
}

// quiet reports whether an open session with questions waiting has had no
// call from its client for s.quietAfter: its client may be gone, and the
// user is told so rather than shown someone waiting.
func (s *Service) quiet(sess store.Session, waiting bool) bool {
	return waiting && sess.State == store.SessionOpen && s.nowMS()-max(sess.ActiveAt, sess.CreatedAt) >= s.quietAfter.Milliseconds()
}

// QuietChats lists the chats whose serve session is quiet (quiet): the
// pending list says of their questions that the client may be gone.
func (s *Service) QuietChats(ctx context.Context) (map[string]bool, error) {
	open, err := s.store.OpenSessions(ctx, s.reader())
	out := map[string]bool{}
	for _, sess := range open {
		n, err := s.store.CountSessionPending(ctx, s.reader(), sess.ID)
		if err != nil {
			return nil, err
		}
		if s.quiet(sess, n > 0) {
			out[sess.ChatID] = true
		}
	}
	return out, err
}
