package store

import "context"

// Draft is the user's unfinished values for one request revision.
type Draft struct {
	RequestID string
	Revision  int
	Values    string // JSON object
	Edited    bool
	UpdatedAt int64
	// Focus is the field the user was in ("" when the writer does not
	// know it: the stored one is kept).
	Focus string
}

// UpsertDraft saves a draft, replacing the previous save of that revision.
func (Queries) UpsertDraft(ctx context.Context, h Handle, d Draft) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO drafts (request_id, revision, vals, edited, updated_at, focus) VALUES (?, ?, ?, ?, ?, ?)
		 ON CONFLICT (request_id, revision) DO UPDATE SET vals = excluded.vals, edited = excluded.edited,
		   updated_at = excluded.updated_at, focus = iif(excluded.focus = '', drafts.focus, excluded.focus)`,
		d.RequestID, d.Revision, d.Values, d.Edited, d.UpdatedAt, d.Focus)
	return err
}

// GetDraft reads the draft of one revision.
func (Queries) GetDraft(ctx context.Context, h Handle, requestID string, revision int) (Draft, error) {
	var d Draft
	err := h.QueryRowContext(ctx,
		`SELECT request_id, revision, vals, edited, updated_at, focus FROM drafts WHERE request_id = ? AND revision = ?`,
		requestID, revision).Scan(&d.RequestID, &d.Revision, &d.Values, &d.Edited, &d.UpdatedAt, &d.Focus)
	return d, noRow(err)
}
