package store

import (
	"context"
	"database/sql"
	"errors"
)

// Template states.
const (
	TemplateActive      = "active"
	TemplateInvalidated = "invalidated"
)

// GetTemplate reads one template by name.
func (q Q) GetTemplate(ctx context.Context, name string) (Template, error) {
	var t Template
	err := q.db.QueryRowContext(ctx, `SELECT name, definition, state, updated_at FROM templates WHERE name = ?`, name).
		Scan(&t.Name, &t.Definition, &t.State, &t.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return t, err
}

// SetTemplateState marks a template active or invalidated.
func (q Q) SetTemplateState(ctx context.Context, name, state string, now int64) error {
	return expectOne(q.db.ExecContext(ctx, `UPDATE templates SET state = ?, updated_at = ? WHERE name = ?`, state, now, name))
}

// PendingTemplateRequests lists the pending requests whose form came from
// the named template, oldest first.
func (q Q) PendingTemplateRequests(ctx context.Context, name string) ([]Request, error) {
	return q.queryRequests(ctx,
		`SELECT `+reqCols+` FROM requests WHERE template = ? AND state = 'pending' ORDER BY seq`, name)
}

// Template is a host-registered form definition.
type Template struct {
	Name       string
	Definition string
	State      string
	UpdatedAt  int64
}

// UpsertTemplate registers or replaces a template.
func (q Q) UpsertTemplate(ctx context.Context, t Template) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO templates (name, definition, state, updated_at) VALUES (?, ?, ?, ?)
		 ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, state = excluded.state, updated_at = excluded.updated_at`,
		t.Name, t.Definition, t.State, t.UpdatedAt)
	return err
}

// Templates lists every template.
func (q Q) Templates(ctx context.Context) ([]Template, error) {
	rows, err := q.db.QueryContext(ctx, `SELECT name, definition, state, updated_at FROM templates ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Template
	for rows.Next() {
		var t Template
		if err := rows.Scan(&t.Name, &t.Definition, &t.State, &t.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
