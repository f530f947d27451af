package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
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
	ReasonUserCancelled       = "user_cancelled"  // the user cancelled it (screen or CLI)
	ReasonAgentCancelled      = "agent_cancelled" // its asker withdrew it with input_cancel
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
	// OwnerKind and OwnerName say who asks (docs/behaviour.md): OwnerAgent, or an
	// MCP server or client by name.
	OwnerKind string
	OwnerName string
	// OwnerParent is the run that delegated a sub-agent's request's run
	// (OwnerName is then that sub-agent's path).
	OwnerParent string
	// SessionID is the serve session that asked, for a request with no run.
	SessionID sql.NullString
	// Origin is the skill active when it was asked (JSON, chat/skills.go).
	Origin sql.NullString
}

// Owner kinds.
const (
	OwnerAgent     = "agent"
	OwnerMCPServer = "mcp_server"
	OwnerMCPClient = "mcp_client"
)

const reqCols = `id, seq, chat_id, run_id, request_key, args_hash, tool_call_id, state, closed_reason, revision, digest,
	reason, title, template, context, partial, expires_at, created_at, updated_at, closed_at,
	owner_kind, owner_name, session_id, owner_parent, origin`

// dest is where a row of reqCols scans to, in order.
func (r *Request) dest() []any {
	return []any{&r.ID, &r.Seq, &r.ChatID, &r.RunID, &r.RequestKey, &r.ArgsHash, &r.ToolCallID, &r.State,
		&r.ClosedReason, &r.Revision, &r.Digest, &r.Reason, &r.Title, &r.Template, &r.Context, &r.Partial,
		&r.ExpiresAt, &r.CreatedAt, &r.UpdatedAt, &r.ClosedAt, &r.OwnerKind, &r.OwnerName, &r.SessionID, &r.OwnerParent, &r.Origin}
}

// InsertRequest creates a request at its first revision (Seq is assigned
// here and returned) and, while it is pending, its pending-list entry.
func (Queries) InsertRequest(ctx context.Context, h Handle, r Request, first Revision, item string) (Request, error) {
	if err := needItem(r, item); err != nil {
		return r, err
	}
	r.OwnerKind = cmp.Or(r.OwnerKind, OwnerAgent)
	err := h.QueryRowContext(ctx,
		`INSERT INTO requests (id, seq, chat_id, run_id, request_key, args_hash, tool_call_id, state, revision, digest,
		   reason, title, template, context, expires_at, created_at, updated_at, owner_kind, owner_name, session_id, owner_parent, origin)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM requests), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		 RETURNING seq`,
		r.ID, r.ChatID, r.RunID, r.RequestKey, r.ArgsHash, r.ToolCallID, r.State, r.Revision, r.Digest,
		r.Reason, r.Title, r.Template, r.Context, r.ExpiresAt, r.CreatedAt, r.UpdatedAt,
		r.OwnerKind, r.OwnerName, r.SessionID, r.OwnerParent, r.Origin).Scan(&r.Seq)
	if err != nil {
		return r, err
	}
	first.RequestID = r.ID
	if err := insertRevision(ctx, h, first); err != nil {
		return r, err
	}
	return r, syncPendingItem(ctx, h, r, item)
}

// UpdateRequest writes a request's mutable columns and its pending-list
// entry: item replaces it while r is pending; once r is not, the entry is
// removed (item is not needed).
func (Queries) UpdateRequest(ctx context.Context, h Handle, r Request, item string) error {
	if err := needItem(r, item); err != nil {
		return err
	}
	if err := expectOne(h.ExecContext(ctx,
		`UPDATE requests SET state = ?, closed_reason = ?, revision = ?, digest = ?, title = ?, template = ?, partial = ?,
		   updated_at = ?, closed_at = ? WHERE id = ?`,
		r.State, r.ClosedReason, r.Revision, r.Digest, r.Title, r.Template, r.Partial, r.UpdatedAt, r.ClosedAt, r.ID)); err != nil {
		return err
	}
	return syncPendingItem(ctx, h, r, item)
}

// ReviseRequest records rev as the new current revision of r (r.Revision
// and r.Digest already name it) and saves r as UpdateRequest does.
func (Queries) ReviseRequest(ctx context.Context, h Handle, r Request, rev Revision, item string) error {
	if rev.RequestID != r.ID || rev.Revision != r.Revision || rev.Digest != r.Digest {
		return errors.New("store: the new revision is not the one the request names")
	}
	if err := insertRevision(ctx, h, rev); err != nil {
		return err
	}
	return Queries{}.UpdateRequest(ctx, h, r, item)
}

// errNoItem refuses to write a pending request without its pending-list
// entry.
var errNoItem = errors.New("store: a pending request is written with its pending-list entry")

func needItem(r Request, item string) error {
	if r.State == ReqPending && item == "" {
		return errNoItem
	}
	return nil
}

// GetRequest reads one request.
func (Queries) GetRequest(ctx context.Context, h Handle, id string) (Request, error) {
	return scan[Request](h.QueryRowContext(ctx, `SELECT `+reqCols+` FROM requests WHERE id = ?`, id))
}

// RequestByKey finds a run's request by its requestKey.
func (Queries) RequestByKey(ctx context.Context, h Handle, runID, key string) (Request, error) {
	return scan[Request](h.QueryRowContext(ctx,
		`SELECT `+reqCols+` FROM requests WHERE run_id = ? AND request_key = ?`, runID, key))
}

// RequestFilter narrows ListRequests; empty fields match everything.
type RequestFilter struct {
	ChatID    string
	RunID     string
	SessionID string // a serve session's requests
	State     string
	Limit     int
	// ActiveChats leaves out the requests of archived chats.
	ActiveChats bool
}

// ListRequests returns requests in creation order.
func (Queries) ListRequests(ctx context.Context, h Handle, f RequestFilter) ([]Request, error) {
	where, args := f.where()
	return queryAll(ctx, h, scan[Request], `SELECT `+prefixed("r.", reqCols)+` FROM requests r`+where, args...)
}

// where is f's conditions on requests aliased r, with their order and limit.
func (f RequestFilter) where() (string, []any) {
	query, args := ` WHERE 1=1`, []any{}
	if f.ChatID != "" {
		query += ` AND r.chat_id = ?`
		args = append(args, f.ChatID)
	}
	if f.RunID != "" {
		query += ` AND r.run_id = ?`
		args = append(args, f.RunID)
	}
	if f.SessionID != "" {
		query += ` AND r.session_id = ?`
		args = append(args, f.SessionID)
	}
	if f.ActiveChats {
		query += ` AND r.` + notArchived
	}
	switch f.State {
	case "":
	case ReqPending:
		query += ` AND r.state = 'pending'` // a literal, so requests_open serves it
	default:
		query += ` AND r.state = ?`
		args = append(args, f.State)
	}
	query += ` ORDER BY r.seq`
	if f.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	return query, args
}

// RequestsByID reads the named requests, in creation order. Unknown ids are
// skipped.
func (Queries) RequestsByID(ctx context.Context, h Handle, ids []string) ([]Request, error) {
	var out []Request
	err := eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT ` + reqCols + ` FROM requests WHERE id IN (` + marks + `) ORDER BY seq`
	}, func(sc rowScanner) error {
		r, err := scan[Request](sc)
		out = append(out, r)
		return err
	})
	if len(ids) > batchSize {
		slices.SortFunc(out, func(a, b Request) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return out, err
}
