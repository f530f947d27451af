package store

import "context"

// Template states.
const (
	TemplateActive      = "active"
	TemplateInvalidated = "invalidated"
)

// GetTemplate reads one template by name.
func (Queries) GetTemplate(ctx context.Context, h Handle, name string) (Template, error) {
	return scan[Template](h.QueryRowContext(ctx, `SELECT name, definition, state, updated_at FROM templates WHERE name = ?`, name))
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

func (t *Template) dest() []any { return []any{&t.Name, &t.Definition, &t.State, &t.UpdatedAt} }

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
	return queryAll(ctx, h, scan[Template], `SELECT name, definition, state, updated_at FROM templates ORDER BY name`)
}
