package store

import (
	"cmp"
	"context"
	"database/sql"
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

	TargetAgent     = "agent"
	TargetMCPServer = "mcp_server"
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
	Payload   string // the JSON the agent receives (docs/behaviour.md)
	// Target is who receives it: TargetAgent (the run's model) or
	// TargetMCPServer (the server that asked; RunID is then null).
	Target    string
	CreatedAt int64
	UpdatedAt int64
}

const deliveryCols = `id, request_id, run_id, kind, state, attempts, last_error, payload, created_at, updated_at, target`

func (d *Delivery) dest() []any {
	return []any{&d.ID, &d.RequestID, &d.RunID, &d.Kind, &d.State, &d.Attempts, &d.LastError, &d.Payload, &d.CreatedAt, &d.UpdatedAt, &d.Target}
}

// InsertDelivery records a delivery to make and returns its id.
func (Queries) InsertDelivery(ctx context.Context, h Handle, d Delivery) (int64, error) {
	var id int64
	d.Target = cmp.Or(d.Target, TargetAgent)
	err := h.QueryRowContext(ctx,
		`INSERT INTO deliveries (request_id, run_id, kind, state, payload, created_at, updated_at, target)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		d.RequestID, d.RunID, d.Kind, d.State, d.Payload, d.CreatedAt, d.UpdatedAt, d.Target).Scan(&id)
	return id, err
}

func queryDeliveries(ctx context.Context, h Handle, where string, args ...any) ([]Delivery, error) {
	return queryAll(ctx, h, scan[Delivery], `SELECT `+deliveryCols+` FROM deliveries WHERE `+where+` ORDER BY id`, args...)
}

// RunDeliveries lists a run's deliveries in the given states (all when none).
func (Queries) RunDeliveries(ctx context.Context, h Handle, runID string, states ...string) ([]Delivery, error) {
	return deliveriesIn(ctx, h, `run_id = ?`, runID, states)
}

// deliveriesIn lists the deliveries where col = id, state by state in the
// order given (all when no state is given), each state's oldest first.
func deliveriesIn(ctx context.Context, h Handle, col, id string, states []string) ([]Delivery, error) {
	if len(states) == 0 {
		return queryDeliveries(ctx, h, col, id)
	}
	var out []Delivery
	for _, st := range states {
		ds, err := queryDeliveries(ctx, h, col+` AND state = ?`, id, st)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

// UpdateDelivery writes a delivery's state, attempts and last error.
func (Queries) UpdateDelivery(ctx context.Context, h Handle, d Delivery) error {
	return expectOne(h.ExecContext(ctx,
		`UPDATE deliveries SET state = ?, attempts = ?, last_error = ?, updated_at = ? WHERE id = ?`,
		d.State, d.Attempts, d.LastError, d.UpdatedAt, d.ID))
}

// DeliveriesOf lists the deliveries of the named requests, oldest first, by
// request id.
func (Queries) DeliveriesOf(ctx context.Context, h Handle, ids []string) (map[string][]Delivery, error) {
	out := map[string][]Delivery{}
	return out, eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT ` + deliveryCols + ` FROM deliveries WHERE request_id IN (` + marks + `) ORDER BY id`
	}, func(sc rowScanner) error {
		d, err := scan[Delivery](sc)
		out[d.RequestID] = append(out[d.RequestID], d)
		return err
	})
}
