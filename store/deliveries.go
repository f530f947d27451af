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
