package store

import (
	"context"
	"database/sql"
	"errors"
)

// Request states and closed reasons.
const (
	ReqPending   = "pending"
	ReqAnswered  = "answered"
	ReqCancelled = "cancelled"
	ReqExpired   = "expired"

	ReasonDeadline            = "deadline"
	ReasonTemplateInvalidated = "template_invalidated"
	ReasonTaskStopped         = "task_stopped"
)

// Request is an input request at its current revision.
type Request struct {
	ID           string
	Seq          int64
	ChatID       string
	RunID        sql.NullString
	RequestKey   string
	ArgsHash     string
	ToolCallID   string
	State        string
	ClosedReason string
	Revision     int
	Digest       string
	Reason       string
	Title        string
	Template     string
	Context      sql.NullString
	Partial      sql.NullString // JSON {values, origins} of accepted partial answers
	ExpiresAt    sql.NullInt64
	CreatedAt    int64
	UpdatedAt    int64
	ClosedAt     sql.NullInt64
}

const reqCols = `id, seq, chat_id, run_id, request_key, args_hash, tool_call_id, state, closed_reason, revision, digest,
	reason, title, template, context, partial, expires_at, created_at, updated_at, closed_at`

func scanRequest(sc interface{ Scan(...any) error }) (Request, error) {
	var r Request
	err := sc.Scan(&r.ID, &r.Seq, &r.ChatID, &r.RunID, &r.RequestKey, &r.ArgsHash, &r.ToolCallID, &r.State,
		&r.ClosedReason, &r.Revision, &r.Digest, &r.Reason, &r.Title, &r.Template, &r.Context, &r.Partial,
		&r.ExpiresAt, &r.CreatedAt, &r.UpdatedAt, &r.ClosedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return r, err
}

// InsertRequest creates a request (at revision 1); Seq is assigned here.
func (q Q) InsertRequest(ctx context.Context, r Request) (Request, error) {
	err := q.db.QueryRowContext(ctx,
		`INSERT INTO requests (id, seq, chat_id, run_id, request_key, args_hash, tool_call_id, state, revision, digest,
		   reason, title, template, context, expires_at, created_at, updated_at)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM requests), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		 RETURNING seq`,
		r.ID, r.ChatID, r.RunID, r.RequestKey, r.ArgsHash, r.ToolCallID, r.State, r.Revision, r.Digest,
		r.Reason, r.Title, r.Template, r.Context, r.ExpiresAt, r.CreatedAt, r.UpdatedAt).Scan(&r.Seq)
	return r, err
}

// GetRequest reads one request.
func (q Q) GetRequest(ctx context.Context, id string) (Request, error) {
	return scanRequest(q.db.QueryRowContext(ctx, `SELECT `+reqCols+` FROM requests WHERE id = ?`, id))
}

// RequestByKey finds a run's request by its requestKey.
func (q Q) RequestByKey(ctx context.Context, runID, key string) (Request, error) {
	return scanRequest(q.db.QueryRowContext(ctx,
		`SELECT `+reqCols+` FROM requests WHERE run_id = ? AND request_key = ?`, runID, key))
}

// RequestFilter narrows ListRequests; empty fields match everything.
type RequestFilter struct {
	ChatID string
	RunID  string
	State  string
	Limit  int
	// ActiveChats leaves out the requests of archived chats.
	ActiveChats bool
}

// ListRequests returns requests in creation order.
func (q Q) ListRequests(ctx context.Context, f RequestFilter) ([]Request, error) {
	query := `SELECT ` + reqCols + ` FROM requests WHERE 1=1`
	var args []any
	if f.ChatID != "" {
		query += ` AND chat_id = ?`
		args = append(args, f.ChatID)
	}
	if f.RunID != "" {
		query += ` AND run_id = ?`
		args = append(args, f.RunID)
	}
	if f.State != "" {
		query += ` AND state = ?`
		args = append(args, f.State)
	}
	query += ` ORDER BY seq`
	if f.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	return q.queryRequests(ctx, query, args...)
}

// queryRequests runs a query selecting reqCols and scans every row.
func (q Q) queryRequests(ctx context.Context, query string, args ...any) ([]Request, error) {
	rows, err := q.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Request
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// UpdateRequest writes a request's mutable columns.
func (q Q) UpdateRequest(ctx context.Context, r Request) error {
	return expectOne(q.db.ExecContext(ctx,
		`UPDATE requests SET state = ?, closed_reason = ?, revision = ?, digest = ?, title = ?, template = ?, partial = ?,
		   updated_at = ?, closed_at = ? WHERE id = ?`,
		r.State, r.ClosedReason, r.Revision, r.Digest, r.Title, r.Template, r.Partial, r.UpdatedAt, r.ClosedAt, r.ID))
}

// Revision is one definition of a request.
type Revision struct {
	RequestID  string
	Revision   int
	Digest     string
	Definition string // JSON forms.Definition
	Prefill    sql.NullString
	Supplied   sql.NullString
	CreatedAt  int64
}

// InsertRevision records a revision.
func (q Q) InsertRevision(ctx context.Context, v Revision) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO revisions (request_id, revision, digest, definition, prefill, supplied, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?)`,
		v.RequestID, v.Revision, v.Digest, v.Definition, v.Prefill, v.Supplied, v.CreatedAt)
	return err
}

// GetRevision reads one revision of a request.
func (q Q) GetRevision(ctx context.Context, requestID string, revision int) (Revision, error) {
	var v Revision
	err := q.db.QueryRowContext(ctx,
		`SELECT request_id, revision, digest, definition, prefill, supplied, created_at
		 FROM revisions WHERE request_id = ? AND revision = ?`, requestID, revision).
		Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return v, err
}

// Revisions lists every revision of a request, oldest first.
func (q Q) Revisions(ctx context.Context, requestID string) ([]Revision, error) {
	rows, err := q.db.QueryContext(ctx,
		`SELECT request_id, revision, digest, definition, prefill, supplied, created_at
		 FROM revisions WHERE request_id = ? ORDER BY revision`, requestID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Revision
	for rows.Next() {
		var v Revision
		if err := rows.Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// DueRequests lists pending requests whose deadline is at or before now.
func (q Q) DueRequests(ctx context.Context, now int64) ([]Request, error) {
	return q.queryRequests(ctx,
		`SELECT `+reqCols+` FROM requests WHERE state = 'pending' AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY seq`, now)
}

// PendingByChat counts the open requests of each active chat that has any.
func (q Q) PendingByChat(ctx context.Context) (map[string]int, error) {
	rows, err := q.db.QueryContext(ctx,
		`SELECT chat_id, COUNT(*) FROM requests INDEXED BY requests_open WHERE state = 'pending'
		   AND chat_id IN (SELECT id FROM chats WHERE state = 'active') GROUP BY chat_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// CountPendingOutside counts the open requests of every active chat but
// chatID.
func (q Q) CountPendingOutside(ctx context.Context, chatID string) (int, error) {
	var n int
	err := q.db.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM requests INDEXED BY requests_pending_chat WHERE state = 'pending' AND chat_id <> ?
		   AND chat_id IN (SELECT id FROM chats WHERE state = 'active')`, chatID).Scan(&n)
	return n, err
}
