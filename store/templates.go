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
func (Queries) GetTemplate(ctx context.Context, h Handle, name string) (Template, error) {
	var t Template
	err := h.QueryRowContext(ctx, `SELECT name, definition, state, updated_at FROM templates WHERE name = ?`, name).
		Scan(&t.Name, &t.Definition, &t.State, &t.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return t, err
}

// SetTemplateState marks a template active or invalidated.
func (Queries) SetTemplateState(ctx context.Context, h Handle, name, state string, now int64) error {
	return expectOne(h.ExecContext(ctx, `UPDATE templates SET state = ?, updated_at = ? WHERE name = ?`, state, now, name))
}

// Template is a host-registered form definition.
type Template struct {
	Name       string
	Definition string
	State      string
	UpdatedAt  int64
}

// UpsertTemplate registers or replaces a template.
func (Queries) UpsertTemplate(ctx context.Context, h Handle, t Template) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO templates (name, definition, state, updated_at) VALUES (?, ?, ?, ?)
		 ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, state = excluded.state, updated_at = excluded.updated_at`,
		t.Name, t.Definition, t.State, t.UpdatedAt)
	return err
}

// Templates lists every template.
func (Queries) Templates(ctx context.Context, h Handle) ([]Template, error) {
	return queryAll(ctx, h, func(sc rowScanner) (t Template, err error) {
		err = sc.Scan(&t.Name, &t.Definition, &t.State, &t.UpdatedAt)
		return
	}, `SELECT name, definition, state, updated_at FROM templates ORDER BY name`)
}
