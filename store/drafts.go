package store

import "context"

// Draft is the user's unfinished values for one request revision.
type Draft struct {
	RequestID string
	Revision  int
	Values    string // JSON object
	Edited    bool
	UpdatedAt int64
}

// UpsertDraft saves a draft, replacing the previous save of that revision.
func (Queries) UpsertDraft(ctx context.Context, h Handle, d Draft) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO drafts (request_id, revision, vals, edited, updated_at) VALUES (?, ?, ?, ?, ?)
		 ON CONFLICT (request_id, revision) DO UPDATE SET vals = excluded.vals, edited = excluded.edited,
		   updated_at = excluded.updated_at`,
		d.RequestID, d.Revision, d.Values, d.Edited, d.UpdatedAt)
	return err
}

// GetDraft reads the draft of one revision.
func (Queries) GetDraft(ctx context.Context, h Handle, requestID string, revision int) (Draft, error) {
	var d Draft
	err := h.QueryRowContext(ctx,
		`SELECT request_id, revision, vals, edited, updated_at FROM drafts WHERE request_id = ? AND revision = ?`,
		requestID, revision).Scan(&d.RequestID, &d.Revision, &d.Values, &d.Edited, &d.UpdatedAt)
	return d, noRow(err)
}
