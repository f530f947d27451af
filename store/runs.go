package store

import (
	"context"
	"database/sql"
)

// Run states.
const (
	RunRunning      = "running"
	RunWaitingInput = "waiting_input"
	// RunWaitingChildren is stored as waiting_input with waits_children
	// set (migration 0015): the state's CHECK predates it.
	RunWaitingChildren = "waiting_children"
	RunSucceeded       = "succeeded"
	RunFailed          = "failed"
	RunStopped         = "stopped"
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
	// A sub-agent's run (docs/behaviour.md): its parent, its name, the
	// parent's tool call it answers and the tools it may use (a JSON list;
	// NULL: its parent's).
	ParentRunID  string
	Name         string
	ParentCallID string
	Tools        sql.NullString
	// Skills are the skills it activated, and the candidates (JSON,
	// chat/skills.go).
	Skills    sql.NullString
	CreatedAt int64
	UpdatedAt int64
}

const runCols = `id, seq, chat_id, state, step, questions, model_calls, reply, result, error, provider, model, seen, created_at, updated_at,
	parent_run_id, name, parent_call_id, tools, waits_children, skills`

func scanRun(sc rowScanner) (Run, error) {
	var r Run
	var children bool
	var parent sql.NullString
	err := sc.Scan(&r.ID, &r.Seq, &r.ChatID, &r.State, &r.Step, &r.Questions, &r.ModelCalls, &r.Reply,
		&r.Result, &r.Error, &r.Provider, &r.Model, &r.Seen, &r.CreatedAt, &r.UpdatedAt,
		&parent, &r.Name, &r.ParentCallID, &r.Tools, &children, &r.Skills)
	r.ParentRunID = parent.String
	if children && r.State == RunWaitingInput {
		r.State = RunWaitingChildren
	}
	return r, noRow(err)
}

// dbState is how a state is stored, and whether it waits for children.
func dbState(state string) (string, bool) {
	if state == RunWaitingChildren {
		return RunWaitingInput, true
	}
	return state, false
}

// InsertRun creates a run; its Seq is assigned here and returned.
func (Queries) InsertRun(ctx context.Context, h Handle, r Run) (Run, error) {
	state, _ := dbState(r.State)
	err := h.QueryRowContext(ctx,
		`INSERT INTO runs (id, seq, chat_id, state, provider, model, created_at, updated_at, parent_run_id, name, parent_call_id, tools)
		 VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM runs), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
		r.ID, r.ChatID, state, r.Provider, r.Model, r.CreatedAt, r.UpdatedAt,
		sql.NullString{String: r.ParentRunID, Valid: r.ParentRunID != ""}, r.Name, r.ParentCallID, r.Tools).Scan(&r.Seq)
	return r, err
}

// GetRun reads one run.
func (Queries) GetRun(ctx context.Context, h Handle, id string) (Run, error) {
	return scanRun(h.QueryRowContext(ctx, `SELECT `+runCols+` FROM runs WHERE id = ?`, id))
}

// LatestRun returns the chat's newest task (a sub-agent's run is part of
// its parent's task, never the chat's run).
func (Queries) LatestRun(ctx context.Context, h Handle, chatID string) (Run, error) {
	return scanRun(h.QueryRowContext(ctx,
		`SELECT `+runCols+` FROM runs WHERE chat_id = ? AND parent_run_id IS NULL ORDER BY seq DESC LIMIT 1`, chatID))
}

// Tree lists the run rootID and its descendants, parents before children.
func (Queries) Tree(ctx context.Context, h Handle, rootID string) ([]Run, error) {
	return queryAll(ctx, h, scanRun, `WITH RECURSIVE t(id, depth) AS (SELECT ?, 0
		UNION ALL SELECT r.id, t.depth + 1 FROM runs r JOIN t ON r.parent_run_id = t.id)
		SELECT `+prefixed("r.", runCols)+` FROM t JOIN runs r ON r.id = t.id ORDER BY t.depth, r.seq`, rootID)
}

// UpdateRun writes a run's mutable columns.
func (Queries) UpdateRun(ctx context.Context, h Handle, r Run) error {
	state, children := dbState(r.State)
	return expectOne(h.ExecContext(ctx,
		`UPDATE runs SET state = ?, step = ?, questions = ?, model_calls = ?, reply = ?, result = ?, error = ?, seen = ?,
		   updated_at = ?, waits_children = ?, skills = ? WHERE id = ?`,
		state, r.Step, r.Questions, r.ModelCalls, r.Reply, r.Result, r.Error, r.Seen, r.UpdatedAt, children, r.Skills, r.ID))
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
func (Queries) ResumableRuns(ctx context.Context, h Handle) ([]Run, error) {
	return queryAll(ctx, h, scanRun, resumableRuns(prefixed("r.", runCols)))
}
