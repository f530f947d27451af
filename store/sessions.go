package store

import (
	"context"
	"database/sql"
	"slices"
)

// Session states.
const (
	SessionOpen  = "open"
	SessionEnded = "ended"
)

// Session is one MCP client's session.
type Session struct {
	Seq           int64 // its byte in the lease file
	ID            string
	ChatID        string
	ClientName    string
	ClientVersion string
	Transport     string
	ClientKey     string // who may re-attach to its questions (migration 0014)
	ActiveAt      int64  // its client's last tool call
	State         string
	EndReason     string
	CreatedAt     int64
	EndedAt       sql.NullInt64
}

const sessionCols = `seq, id, chat_id, client_name, client_version, transport, client_key, active_at, state, end_reason, created_at, ended_at`

func (s *Session) dest() []any {
	return []any{&s.Seq, &s.ID, &s.ChatID, &s.ClientName, &s.ClientVersion, &s.Transport, &s.ClientKey, &s.ActiveAt, &s.State,
		&s.EndReason, &s.CreatedAt, &s.EndedAt}
}

// InsertSession records an open session; Seq is assigned here.
func (Queries) InsertSession(ctx context.Context, h Handle, s Session) (Session, error) {
	s.State = SessionOpen
	err := h.QueryRowContext(ctx,
		`INSERT INTO serve_sessions (id, chat_id, client_name, client_version, transport, client_key, active_at, state, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
		s.ID, s.ChatID, s.ClientName, s.ClientVersion, s.Transport, s.ClientKey, s.ActiveAt, s.State, s.CreatedAt).Scan(&s.Seq)
	return s, err
}

// GetSession reads one session.
func (Queries) GetSession(ctx context.Context, h Handle, id string) (Session, error) {
	return scan[Session](h.QueryRowContext(ctx, `SELECT `+sessionCols+` FROM serve_sessions WHERE id = ?`, id))
}

// ChatSession is the session that asks in a chat (ErrNotFound for a chat
// of followup's own agent).
func (Queries) ChatSession(ctx context.Context, h Handle, chatID string) (Session, error) {
	return scan[Session](h.QueryRowContext(ctx,
		`SELECT `+sessionCols+` FROM serve_sessions WHERE chat_id = ? ORDER BY seq DESC LIMIT 1`, chatID))
}

// OpenSessions lists the sessions not ended, oldest first: usually none or
// a few, read from their own index.
func (Queries) OpenSessions(ctx context.Context, h Handle) ([]Session, error) {
	return queryAll(ctx, h, scan[Session], `SELECT `+sessionCols+` FROM serve_sessions INDEXED BY serve_sessions_open WHERE state = 'open' ORDER BY seq`)
}

// LostSessions lists the sessions among open (the open sessions' seqs,
// Lookout.Sessions) whose byte of the lease file is free: their server has
// died. Sessions this process holds are known without a look at the file,
// the others' bytes are tested through one open of it, and only the lost
// ones' rows are read, so a server with many sessions pays little for
// asking on each request.
func (s *Store) LostSessions(ctx context.Context, open []int64) ([]Session, error) {
	others := slices.DeleteFunc(slices.Clone(open), func(seq int64) bool { return s.sessionLocks.holds(sessionLeaseBase + seq) })
	if len(others) == 0 {
		return nil, nil
	}
	bytes := make([]int64, len(others))
	for i, seq := range others {
		bytes[i] = sessionLeaseBase + seq
	}
	held, err := s.bytesHeld(bytes)
	if err != nil {
		return nil, err
	}
	var lost []int64
	for i, seq := range others {
		if !held[i] {
			lost = append(lost, seq)
		}
	}
	var out []Session
	err = eachIn(ctx, s.r, lost, func(marks string) string {
		return `SELECT ` + sessionCols + ` FROM serve_sessions WHERE seq IN (` + marks + `) ORDER BY seq`
	}, func(sc rowScanner) error {
		v, err := scan[Session](sc)
		out = append(out, v)
		return err
	})
	return out, err
}

// EndSession ends an open session; it reports false when the session was
// already ended or is gone.
func (Queries) EndSession(ctx context.Context, h Handle, id, reason string, now int64) (bool, error) {
	res, err := h.ExecContext(ctx,
		`UPDATE serve_sessions SET state = 'ended', end_reason = ?, ended_at = ? WHERE id = ? AND state = 'open'`,
		reason, now, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// SessionRequestByKey finds a session's request by its requestKey.
func (Queries) SessionRequestByKey(ctx context.Context, h Handle, sessionID, key string) (Request, error) {
	return scan[Request](h.QueryRowContext(ctx,
		`SELECT `+reqCols+` FROM requests WHERE session_id = ? AND request_key = ?`, sessionID, key))
}

// EndedSessionRequest is the newest request with requestKey key and those
// arguments asked in an ended session of the client with that name and
// key: the question a client that comes back may take again. Every
// input_request asks, so it reads the requests with that key and those
// arguments, newest first (requests_serve_key), each checked against its
// session, and never the list of every session ever opened.
func (Queries) EndedSessionRequest(ctx context.Context, h Handle, clientName, clientKey, key, argsHash string) (Request, error) {
	return scan[Request](h.QueryRowContext(ctx, `SELECT `+reqCols+` FROM requests INDEXED BY requests_serve_key
		WHERE request_key = ? AND args_hash = ? AND session_id IS NOT NULL AND EXISTS (SELECT 1 FROM serve_sessions AS s
		WHERE s.id = requests.session_id AND s.state = 'ended' AND s.client_name = ? AND s.client_key = ?) ORDER BY seq DESC LIMIT 1`,
		key, argsHash, clientName, clientKey))
}

// MoveRequest gives a request to another session.
func (Queries) MoveRequest(ctx context.Context, h Handle, requestID, sessionID string) error {
	return expectOne(h.ExecContext(ctx, `UPDATE requests SET session_id = ? WHERE id = ?`, sessionID, requestID))
}

// TouchSession records that the session's client called a tool at now.
func (Queries) TouchSession(ctx context.Context, h Handle, id string, now int64) error {
	_, err := h.ExecContext(ctx, `UPDATE serve_sessions SET active_at = ? WHERE id = ?`, now, id)
	return err
}

// LapsedUnread lists the deliveries no agent read of questions whose
// session has ended and whose lifetime (expires_at, else lifetime after
// created_at) is over at now.
func (Queries) LapsedUnread(ctx context.Context, h Handle, lifetime, now int64) ([]Delivery, error) {
	return queryDeliveries(ctx, h, `state IN (?, ?) AND run_id IS NULL AND EXISTS (SELECT 1 FROM requests AS r
		JOIN serve_sessions AS s ON s.id = r.session_id WHERE r.id = deliveries.request_id AND s.state = 'ended'
		AND coalesce(r.expires_at, r.created_at + ?) <= ?)`, DeliveryPending, DeliveryUnknown, lifetime, now)
}

// UnreadAnswers lists a chat's answered requests whose answer has not
// reached the agent that asked (a delivery still pending or unknown).
func (Queries) UnreadAnswers(ctx context.Context, h Handle, chatID string) ([]Request, error) {
	return queryAll(ctx, h, scan[Request], `SELECT `+reqCols+` FROM requests WHERE chat_id = ? AND state = ? AND EXISTS
		(SELECT 1 FROM deliveries WHERE request_id = requests.id AND state IN (?, ?)) ORDER BY seq`,
		chatID, ReqAnswered, DeliveryPending, DeliveryUnknown)
}

// RequestMark tells whether a request changed: Mark is its state and when
// it last changed.
type RequestMark struct{ ID, ChatID, Mark string }

// RequestMarks reads the marks of the named requests (a gone one has none).
func (Queries) RequestMarks(ctx context.Context, h Handle, ids []string) ([]RequestMark, error) {
	var out []RequestMark
	err := eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT id, chat_id, state || ':' || updated_at FROM requests WHERE id IN (` + marks + `)`
	}, func(sc rowScanner) error {
		var m RequestMark
		err := sc.Scan(&m.ID, &m.ChatID, &m.Mark)
		out = append(out, m)
		return err
	})
	return out, err
}

// CountSessionPending counts a session's pending requests. The state is
// written in the query, not bound: SQLite plans a bound state against the
// partial indexes on pending requests, and then plans the statement again
// every time it runs.
func (Queries) CountSessionPending(ctx context.Context, h Handle, sessionID string) (int, error) {
	var n int
	err := h.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM requests WHERE session_id = ? AND state = 'pending'`, sessionID).Scan(&n)
	return n, err
}

// RequestDeliveries lists one request's deliveries in the given states
// (all when none), oldest first: a serve session's requests have no run
// to list them by.
func (Queries) RequestDeliveries(ctx context.Context, h Handle, requestID string, states ...string) ([]Delivery, error) {
	return deliveriesIn(ctx, h, `request_id = ?`, requestID, states)
}

// sessionLeaseBase puts the sessions' bytes of the lease file far past any
// run's (runs use their seq): the two never meet.
const sessionLeaseBase = 1 << 40

// AcquireSessionLease takes the byte of the session with seq, held while
// the session is open in this process; the kernel frees it when the
// process dies, however it dies. A process's sessions hold their bytes on
// one open lock file: a thousand sessions hold one descriptor, and no
// session none.
func (s *Store) AcquireSessionLease(seq int64) (*Lease, error) {
	return s.sessionLocks.acquire(s, sessionLeaseBase+seq)
}

// SessionLeaseHeld reports whether a live process holds the session's
// byte: an open session whose byte is free has lost its server. A session
// of this process is known without a look at the file, so a server with
// many sessions does not open the lock file once per session per request.
func (s *Store) SessionLeaseHeld(seq int64) (bool, error) {
	if s.sessionLocks.holds(sessionLeaseBase + seq) {
		return true, nil
	}
	return s.LeaseHeld(sessionLeaseBase + seq)
}
