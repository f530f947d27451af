package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"
)

// Batched reads: a list of requests loads its revisions, answers, deliveries
// and proposals in a few queries instead of several per request, and a
// screen reads everything it shows from one snapshot.

// batchSize bounds the ids bound to one IN list (SQLite allows 32,766
// variables; smaller lists keep each statement cheap to prepare).
const batchSize = 500

// ReadTx runs fn in one read transaction on the reader pool, so every query
// in fn sees the same snapshot of the database.
func (s *Store) ReadTx(ctx context.Context, fn func(q Q) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(Q{tx}); err != nil {
		return err
	}
	return tx.Commit()
}

// inList returns "?,?,…" for n ids and the ids as query arguments.
func inList(ids []string) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?,", len(ids)), ","), args
}

// chunks calls fn with ids in slices of at most batchSize.
func chunks(ids []string, fn func(part []string) error) error {
	for len(ids) > 0 {
		n := min(len(ids), batchSize)
		if err := fn(ids[:n]); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// RequestsByID reads the named requests, in creation order. Unknown ids are
// skipped.
func (q Q) RequestsByID(ctx context.Context, ids []string) ([]Request, error) {
	var out []Request
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		rows, err := q.db.QueryContext(ctx, `SELECT `+reqCols+` FROM requests WHERE id IN (`+marks+`) ORDER BY seq`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRequest(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	if len(ids) > batchSize {
		sortBySeq(out)
	}
	return out, err
}

func sortBySeq(rs []Request) {
	slices.SortFunc(rs, func(a, b Request) int { return cmp.Compare(a.Seq, b.Seq) })
}

// CurrentRevisions reads the current revision of each named request, by
// request id.
func (q Q) CurrentRevisions(ctx context.Context, ids []string) (map[string]Revision, error) {
	out := make(map[string]Revision, len(ids))
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		rows, err := q.db.QueryContext(ctx,
			`SELECT v.request_id, v.revision, v.digest, v.definition, v.prefill, v.supplied, v.created_at
			 FROM requests r JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision
			 WHERE r.id IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var v Revision
			if err := rows.Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt); err != nil {
				return err
			}
			out[v.RequestID] = v
		}
		return rows.Err()
	})
	return out, err
}

// ListRequestsWithRevisions is ListRequests with each request's current
// revision. Revisions that share a digest share their content, and a form's
// definition is the large part of a row, so each distinct revision body is
// read once: the first pass reads only the digests.
func (q Q) ListRequestsWithRevisions(ctx context.Context, f RequestFilter) ([]Request, []Revision, error) {
	from := `requests r`
	if f.State == ReqPending && f.ChatID == "" && f.RunID == "" {
		from = `requests r INDEXED BY requests_open`
	}
	query := `SELECT ` + prefixed("r.", reqCols) + `, v.rowid, v.request_id, v.revision, v.digest, v.created_at
		FROM ` + from + ` JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision WHERE 1=1`
	var args []any
	if f.ChatID != "" {
		query += ` AND r.chat_id = ?`
		args = append(args, f.ChatID)
	}
	if f.RunID != "" {
		query += ` AND r.run_id = ?`
		args = append(args, f.RunID)
	}
	if f.ActiveChats {
		query += ` AND r.chat_id IN (SELECT id FROM chats WHERE state = 'active')`
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
	rows, err := q.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var rs []Request
	var vs []Revision
	firstRow := map[string]int64{} // digest -> a revision row that has it
	for rows.Next() {
		var r Request
		var v Revision
		var rowid int64
		if err := rows.Scan(&r.ID, &r.Seq, &r.ChatID, &r.RunID, &r.RequestKey, &r.ArgsHash, &r.ToolCallID, &r.State,
			&r.ClosedReason, &r.Revision, &r.Digest, &r.Reason, &r.Title, &r.Template, &r.Context, &r.Partial,
			&r.ExpiresAt, &r.CreatedAt, &r.UpdatedAt, &r.ClosedAt,
			&rowid, &v.RequestID, &v.Revision, &v.Digest, &v.CreatedAt); err != nil {
			return nil, nil, err
		}
		if _, ok := firstRow[v.Digest]; !ok {
			firstRow[v.Digest] = rowid
		}
		rs, vs = append(rs, r), append(vs, v)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	rows.Close()
	bodies, err := q.revisionBodies(ctx, firstRow)
	if err != nil {
		return nil, nil, err
	}
	for i := range vs {
		b := bodies[vs[i].Digest]
		vs[i].Definition, vs[i].Prefill, vs[i].Supplied = b.Definition, b.Prefill, b.Supplied
	}
	return rs, vs, nil
}

// revisionBodies reads the definition, prefill and supplied values of the
// given revision rows, keyed by digest.
func (q Q) revisionBodies(ctx context.Context, rowByDigest map[string]int64) (map[string]Revision, error) {
	out := make(map[string]Revision, len(rowByDigest))
	ids := make([]int64, 0, len(rowByDigest))
	for _, id := range rowByDigest {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		n := min(len(ids), 500)
		chunk := ids[:n]
		ids = ids[n:]
		marks := strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",")
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := q.db.QueryContext(ctx,
			`SELECT digest, definition, prefill, supplied FROM revisions WHERE rowid IN (`+marks+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var v Revision
			if err := rows.Scan(&v.Digest, &v.Definition, &v.Prefill, &v.Supplied); err != nil {
				rows.Close()
				return nil, err
			}
			out[v.Digest] = v
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// prefixed qualifies each column of a column list with a table alias.
func prefixed(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = alias + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// AnswersOf reads the answers of the named requests, by request id.
func (q Q) AnswersOf(ctx context.Context, ids []string) (map[string]Answer, error) {
	out := map[string]Answer{}
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		rows, err := q.db.QueryContext(ctx,
			`SELECT request_id, revision, digest, vals, origins, command_id, created_at FROM answers
			 WHERE request_id IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var a Answer
			if err := rows.Scan(&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt); err != nil {
				return err
			}
			out[a.RequestID] = a
		}
		return rows.Err()
	})
	return out, err
}

// DeliveriesOf lists the deliveries of the named requests, oldest first, by
// request id.
func (q Q) DeliveriesOf(ctx context.Context, ids []string) (map[string][]Delivery, error) {
	out := map[string][]Delivery{}
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		ds, err := q.queryDeliveries(ctx, `request_id IN (`+marks+`)`, args...)
		for _, d := range ds {
			out[d.RequestID] = append(out[d.RequestID], d)
		}
		return err
	})
	return out, err
}

// PendingProposalsOf lists the undecided proposals of the named requests,
// oldest first, by request id.
func (q Q) PendingProposalsOf(ctx context.Context, ids []string) (map[string][]Proposal, error) {
	out := map[string][]Proposal{}
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		rows, err := q.db.QueryContext(ctx,
			`SELECT id, request_id, kind, state, base_digest, payload, created_at, decided_at FROM proposals
			 WHERE request_id IN (`+marks+`) AND state = 'pending' ORDER BY created_at, id`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanProposal(rows)
			if err != nil {
				return err
			}
			out[p.RequestID] = append(out[p.RequestID], p)
		}
		return rows.Err()
	})
	return out, err
}

// InsertMessages appends many messages with multi-row inserts; ids are
// assigned in slice order. It is for bulk loads (imports, benchmark data).
func (q Q) InsertMessages(ctx context.Context, ms []Message) error {
	const cols = 12
	const rowsPer = 400
	for len(ms) > 0 {
		n := min(len(ms), rowsPer)
		var b strings.Builder
		b.WriteString(`INSERT INTO messages (chat_id, run_id, role, content, tool_calls, tool_call_id, tool_name, request_id,
			delivery_id, visible, for_model, created_at) VALUES `)
		args := make([]any, 0, n*cols)
		for i, m := range ms[:n] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?)")
			args = append(args, m.ChatID, m.RunID, m.Role, m.Content, m.ToolCalls, m.ToolCallID, m.ToolName,
				m.RequestID, m.DeliveryID, m.Visible, m.ForModel, m.CreatedAt)
		}
		if _, err := q.db.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
		ms = ms[n:]
	}
	return nil
}

// SetCacheSize sets the page cache of the connection q runs on, in KiB.
// Bulk loads call it on the writer so big transactions stay in memory.
func (q Q) SetCacheSize(ctx context.Context, kib int) error {
	_, err := q.db.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(kib))
	return err
}

// resumableRuns selects cols of the unfinished runs that resuming would
// drive. The "+" keep the plan starting from the few runs named in the
// subquery, not by walking runs_state or every active chat's runs.
func resumableRuns(cols string) string {
	return `SELECT ` + cols + ` FROM runs r JOIN chats c ON c.id = r.chat_id
		WHERE +c.state = 'active' AND +r.state IN ('running', 'waiting_input') AND r.id IN (
			SELECT id FROM runs WHERE state = 'running'
			UNION ALL SELECT run_id FROM deliveries WHERE state IN ('pending', 'unknown'))
		ORDER BY r.state <> 'running', r.seq`
}

// ResumableRuns lists the unfinished runs of active chats that resuming
// could move on: running ones (first, oldest first), then waiting ones with
// an answer or cancellation not yet delivered (pending or unknown). One query instead
// of one per waiting run; whether a live process holds a run is the lease's
// business, checked by the caller.
func (q Q) ResumableRuns(ctx context.Context) ([]Run, error) {
	rows, err := q.db.QueryContext(ctx, resumableRuns(prefixed("r.", runCols)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
