package store

import (
	"context"
	"database/sql"
	"errors"
)

// RunStore reads and writes runs.
type RunStore interface {
	InsertRun(ctx context.Context, h Handle, r Run) (Run, error)
	GetRun(ctx context.Context, h Handle, id string) (Run, error)
	LatestRun(ctx context.Context, h Handle, chatID string) (Run, error)
	UpdateRun(ctx context.Context, h Handle, r Run) error
	ResumableRuns(ctx context.Context, h Handle) ([]Run, error)
}

// Run states.
const (
	RunRunning      = "running"
	RunWaitingInput = "waiting_input"
	RunSucceeded    = "succeeded"
	RunFailed       = "failed"
	RunStopped      = "stopped"
)

// RunEnded reports whether a run state is final.
func RunEnded(state string) bool {
	return state == RunSucceeded || state == RunFailed || state == RunStopped
}

// Run is one agent task inside a chat.
type Run struct {
	ID         string
	Seq        int64
	ChatID     string
	State      string
	Step       int
	Questions  int
	ModelCalls int
	Reply      string
	Result     sql.NullString
	Error      string
	Provider   string
	Model      string
	Seen       int64 // newest history message id the last model turn read
	CreatedAt  int64
	UpdatedAt  int64
}

const runCols = `id, seq, chat_id, state, step, questions, model_calls, reply, result, error, provider, model, seen, created_at, updated_at`

func scanRun(sc interface{ Scan(...any) error }) (Run, error) {
	var r Run
	err := sc.Scan(&r.ID, &r.Seq, &r.ChatID, &r.State, &r.Step, &r.Questions, &r.ModelCalls, &r.Reply,
		&r.Result, &r.Error, &r.Provider, &r.Model, &r.Seen, &r.CreatedAt, &r.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return r, err
}

// InsertRun creates a run; its Seq is assigned here and returned.
func (queries) InsertRun(ctx context.Context, h Handle, r Run) (Run, error) {
	err := h.QueryRowContext(ctx,
		`INSERT INTO runs (id, seq, chat_id, state, provider, model, created_at, updated_at)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM runs), ?, ?, ?, ?, ?, ?) RETURNING seq`,
		r.ID, r.ChatID, r.State, r.Provider, r.Model, r.CreatedAt, r.UpdatedAt).Scan(&r.Seq)
	return r, err
}

// GetRun reads one run.
func (queries) GetRun(ctx context.Context, h Handle, id string) (Run, error) {
	return scanRun(h.QueryRowContext(ctx, `SELECT `+runCols+` FROM runs WHERE id = ?`, id))
}

// LatestRun returns the chat's newest run.
func (queries) LatestRun(ctx context.Context, h Handle, chatID string) (Run, error) {
	return scanRun(h.QueryRowContext(ctx,
		`SELECT `+runCols+` FROM runs WHERE chat_id = ? ORDER BY seq DESC LIMIT 1`, chatID))
}

// UpdateRun writes a run's mutable columns.
func (queries) UpdateRun(ctx context.Context, h Handle, r Run) error {
	return expectOne(h.ExecContext(ctx,
		`UPDATE runs SET state = ?, step = ?, questions = ?, model_calls = ?, reply = ?, result = ?, error = ?, seen = ?,
		   updated_at = ? WHERE id = ?`,
		r.State, r.Step, r.Questions, r.ModelCalls, r.Reply, r.Result, r.Error, r.Seen, r.UpdatedAt, r.ID))
}

// resumableRuns selects cols of the unfinished runs that resuming would
// drive. The "+" keep the plan starting from the few runs named in the
// subquery, not by walking runs_state or every active chat's runs.
func resumableRuns(cols string) string {
	return `SELECT ` + cols + ` FROM runs r JOIN chats c ON c.id = r.chat_id
		WHERE +c.state = 'active' AND +r.state IN ('running', 'waiting_input') AND r.id IN (
			SELECT id FROM runs WHERE state = 'running'
			UNION ALL SELECT run_id FROM deliveries WHERE state IN ('pending', 'unknown'))
		ORDER BY r.state <> 'running', r.seq`
}

// ResumableRuns lists the unfinished runs of active chats that resuming
// could move on: running ones (first, oldest first), then waiting ones with
// an answer or cancellation not yet delivered (pending or unknown). One query instead
// of one per waiting run; whether a live process holds a run is the lease's
// business, checked by the caller.
func (queries) ResumableRuns(ctx context.Context, h Handle) ([]Run, error) {
	rows, err := h.QueryContext(ctx, resumableRuns(prefixed("r.", runCols)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
