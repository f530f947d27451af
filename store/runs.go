package store

import (
	"context"
	"database/sql"
	"errors"
)

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
func (q Q) InsertRun(ctx context.Context, r Run) (Run, error) {
	err := q.db.QueryRowContext(ctx,
		`INSERT INTO runs (id, seq, chat_id, state, provider, model, created_at, updated_at)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM runs), ?, ?, ?, ?, ?, ?) RETURNING seq`,
		r.ID, r.ChatID, r.State, r.Provider, r.Model, r.CreatedAt, r.UpdatedAt).Scan(&r.Seq)
	return r, err
}

// GetRun reads one run.
func (q Q) GetRun(ctx context.Context, id string) (Run, error) {
	return scanRun(q.db.QueryRowContext(ctx, `SELECT `+runCols+` FROM runs WHERE id = ?`, id))
}

// LatestRun returns the chat's newest run.
func (q Q) LatestRun(ctx context.Context, chatID string) (Run, error) {
	return scanRun(q.db.QueryRowContext(ctx,
		`SELECT `+runCols+` FROM runs WHERE chat_id = ? ORDER BY seq DESC LIMIT 1`, chatID))
}

// UpdateRun writes a run's mutable columns.
func (q Q) UpdateRun(ctx context.Context, r Run) error {
	return expectOne(q.db.ExecContext(ctx,
		`UPDATE runs SET state = ?, step = ?, questions = ?, model_calls = ?, reply = ?, result = ?, error = ?, seen = ?,
		   updated_at = ? WHERE id = ?`,
		r.State, r.Step, r.Questions, r.ModelCalls, r.Reply, r.Result, r.Error, r.Seen, r.UpdatedAt, r.ID))
}
