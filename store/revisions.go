package store

import (
	"context"
	"database/sql"
	"errors"
)

// CurrentRevisions reads the current revision of each named request, by
// request id.
func (Queries) CurrentRevisions(ctx context.Context, h Handle, ids []string) (map[string]Revision, error) {
	out := make(map[string]Revision, len(ids))
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		return eachRow(ctx, h, func(sc rowScanner) error {
			var v Revision
			if err := sc.Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt); err != nil {
				return err
			}
			out[v.RequestID] = v
			return nil
		}, `SELECT v.request_id, v.revision, v.digest, v.definition, v.prefill, v.supplied, v.created_at
			 FROM requests r JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision
			 WHERE r.id IN (`+marks+`)`, args...)
	})
	return out, err
}

// ListRequestsWithRevisions is ListRequests with each request's current
// revision. Revisions that share a digest share their content, and a form's
// definition is the large part of a row, so each distinct revision body is
// read once: the first pass reads only the digests.
func (Queries) ListRequestsWithRevisions(ctx context.Context, h Handle, f RequestFilter) ([]Request, []Revision, error) {
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
	rows, err := h.QueryContext(ctx, query, args...)
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
		if err := rows.Scan(append(r.dest(), &rowid, &v.RequestID, &v.Revision, &v.Digest, &v.CreatedAt)...); err != nil {
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
	bodies, err := revisionBodies(ctx, h, firstRow)
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
func revisionBodies(ctx context.Context, h Handle, rowByDigest map[string]int64) (map[string]Revision, error) {
	out := make(map[string]Revision, len(rowByDigest))
	ids := make([]int64, 0, len(rowByDigest))
	for _, id := range rowByDigest {
		ids = append(ids, id)
	}
	err := chunks(ids, func(part []int64) error {
		marks, args := inList(part)
		return eachRow(ctx, h, func(sc rowScanner) error {
			var v Revision
			if err := sc.Scan(&v.Digest, &v.Definition, &v.Prefill, &v.Supplied); err != nil {
				return err
			}
			out[v.Digest] = v
			return nil
		}, `SELECT digest, definition, prefill, supplied FROM revisions WHERE rowid IN (`+marks+`)`, args...)
	})
	return out, err
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

// insertRevision records a revision.
func insertRevision(ctx context.Context, h Handle, v Revision) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO revisions (request_id, revision, digest, definition, prefill, supplied, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?)`,
		v.RequestID, v.Revision, v.Digest, v.Definition, v.Prefill, v.Supplied, v.CreatedAt)
	return err
}

// GetRevision reads one revision of a request.
func (Queries) GetRevision(ctx context.Context, h Handle, requestID string, revision int) (Revision, error) {
	var v Revision
	err := h.QueryRowContext(ctx,
		`SELECT request_id, revision, digest, definition, prefill, supplied, created_at
		 FROM revisions WHERE request_id = ? AND revision = ?`, requestID, revision).
		Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return v, err
}

// Revisions lists every revision of a request, oldest first.
func (Queries) Revisions(ctx context.Context, h Handle, requestID string) ([]Revision, error) {
	return queryAll(ctx, h, func(sc rowScanner) (v Revision, err error) {
		err = sc.Scan(&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt)
		return
	}, `SELECT request_id, revision, digest, definition, prefill, supplied, created_at
		 FROM revisions WHERE request_id = ? ORDER BY revision`, requestID)
}
