package store

import (
	"context"
	"database/sql"
	"maps"
	"slices"
)

// CurrentRevisions reads the current revision of each named request, by
// request id.
func (Queries) CurrentRevisions(ctx context.Context, h Handle, ids []string) (map[string]Revision, error) {
	out := make(map[string]Revision, len(ids))
	return out, eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT ` + prefixed("v.", revisionCols) + ` FROM requests r
			JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision WHERE r.id IN (` + marks + `)`
	}, func(sc rowScanner) error {
		v, err := scan[Revision](sc)
		out[v.RequestID] = v
		return err
	})
}

// ListRequestsWithRevisions is ListRequests with each request's current
// revision. Revisions that share a digest share their content, and a form's
// definition is the large part of a row, so each distinct revision body is
// read once: the first pass reads only the digests.
func (Queries) ListRequestsWithRevisions(ctx context.Context, h Handle, f RequestFilter) ([]Request, []Revision, error) {
	from := `requests r`
	if f.State == ReqPending && f.ChatID == "" && f.RunID == "" && f.SessionID == "" {
		from = `requests r INDEXED BY requests_open`
	}
	where, args := f.where()
	query := `SELECT ` + prefixed("r.", reqCols) + `, v.rowid, v.request_id, v.revision, v.digest, v.created_at
		FROM ` + from + ` JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision` + where
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
	return out, eachIn(ctx, h, slices.Collect(maps.Values(rowByDigest)), func(marks string) string {
		return `SELECT digest, definition, prefill, supplied FROM revisions WHERE rowid IN (` + marks + `)`
	}, func(sc rowScanner) error {
		var v Revision
		err := sc.Scan(&v.Digest, &v.Definition, &v.Prefill, &v.Supplied)
		out[v.Digest] = v
		return err
	})
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

const revisionCols = `request_id, revision, digest, definition, prefill, supplied, created_at`

func (v *Revision) dest() []any {
	return []any{&v.RequestID, &v.Revision, &v.Digest, &v.Definition, &v.Prefill, &v.Supplied, &v.CreatedAt}
}

// insertRevision records a revision.
func insertRevision(ctx context.Context, h Handle, v Revision) error {
	return insertRow(ctx, h, "revisions", revisionCols, &v)
}

// GetRevision reads one revision of a request.
func (Queries) GetRevision(ctx context.Context, h Handle, requestID string, revision int) (Revision, error) {
	return scan[Revision](h.QueryRowContext(ctx,
		`SELECT `+revisionCols+` FROM revisions WHERE request_id = ? AND revision = ?`, requestID, revision))
}

// Revisions lists every revision of a request, oldest first.
func (Queries) Revisions(ctx context.Context, h Handle, requestID string) ([]Revision, error) {
	return queryAll(ctx, h, scan[Revision], `SELECT `+revisionCols+` FROM revisions WHERE request_id = ? ORDER BY revision`, requestID)
}
