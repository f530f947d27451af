package store

import (
	"context"
	"database/sql"
	"errors"
)

// Delivery states and kinds.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryUnknown   = "unknown"
	DeliveryFailed    = "failed"

	DeliveryAnswer = "answer"
	DeliveryCancel = "cancel"
	DeliveryExpire = "expire"
)

// Delivery records handing an answer or a cancellation to the agent.
type Delivery struct {
	ID        int64
	RequestID string
	RunID     sql.NullString
	Kind      string
	State     string
	Attempts  int
	LastError string
	Payload   string // the JSON the agent receives (DESIGN §5)
	CreatedAt int64
	UpdatedAt int64
}

const deliveryCols = `id, request_id, run_id, kind, state, attempts, last_error, payload, created_at, updated_at`

func scanDelivery(sc interface{ Scan(...any) error }) (Delivery, error) {
	var d Delivery
	err := sc.Scan(&d.ID, &d.RequestID, &d.RunID, &d.Kind, &d.State, &d.Attempts, &d.LastError, &d.Payload,
		&d.CreatedAt, &d.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return d, err
}

// InsertDelivery records a delivery to make and returns its id.
func (q Q) InsertDelivery(ctx context.Context, d Delivery) (int64, error) {
	var id int64
	err := q.db.QueryRowContext(ctx,
		`INSERT INTO deliveries (request_id, run_id, kind, state, payload, created_at, updated_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		d.RequestID, d.RunID, d.Kind, d.State, d.Payload, d.CreatedAt, d.UpdatedAt).Scan(&id)
	return id, err
}

func (q Q) queryDeliveries(ctx context.Context, where string, args ...any) ([]Delivery, error) {
	rows, err := q.db.QueryContext(ctx, `SELECT `+deliveryCols+` FROM deliveries WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// RunDeliveries lists a run's deliveries in the given states (all when none).
func (q Q) RunDeliveries(ctx context.Context, runID string, states ...string) ([]Delivery, error) {
	if len(states) == 0 {
		return q.queryDeliveries(ctx, `run_id = ?`, runID)
	}
	var out []Delivery
	for _, st := range states {
		ds, err := q.queryDeliveries(ctx, `run_id = ? AND state = ?`, runID, st)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// UpdateDelivery writes a delivery's state, attempts and last error.
func (q Q) UpdateDelivery(ctx context.Context, d Delivery) error {
	return expectOne(q.db.ExecContext(ctx,
		`UPDATE deliveries SET state = ?, attempts = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		d.State, d.Attempts, d.LastError, d.UpdatedAt, d.ID))
}

// Receipt is the stored first result of a mutating command.
type Receipt struct {
	CommandID string
	ChatID    sql.NullString
	Kind      string
	ArgsHash  string
	Result    string // JSON
	CreatedAt int64
}

// GetReceipt reads a receipt by command id.
func (q Q) GetReceipt(ctx context.Context, commandID string) (Receipt, error) {
	var r Receipt
	err := q.db.QueryRowContext(ctx,
		`SELECT command_id, chat_id, kind, args_hash, result, created_at FROM receipts WHERE command_id = ?`, commandID).
		Scan(&r.CommandID, &r.ChatID, &r.Kind, &r.ArgsHash, &r.Result, &r.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return r, err
}

// InsertReceipt stores a command's first result.
func (q Q) InsertReceipt(ctx context.Context, r Receipt) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO receipts (command_id, chat_id, kind, args_hash, result, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		r.CommandID, r.ChatID, r.Kind, r.ArgsHash, r.Result, r.CreatedAt)
	return err
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
