package store

import (
	"context"
	"database/sql"
)

// Tool step states.
const (
	StepStarted       = "started"
	StepInputRequired = "input_required"
	StepDone          = "done"
)

// ToolStep is one call of an MCP tool, by its run and the model's call id.
type ToolStep struct {
	RunID      string
	ToolCallID string
	ChatID     string
	Name       string // the model's name (mcp__server__tool)
	Server     string
	Tool       string // the server's own name
	Arguments  string // JSON
	ReadOnly   bool
	Idempotent bool
	State      string
	// RequestState is the JSON of what the server needs before it
	// completes the call (input_required, or the URLs of -32042).
	RequestState sql.NullString
	Attempts     int
	Outcome      string // once done: what the model was told (see chat)
	Result       sql.NullString
	DurationMS   int64
	StartedAt    int64
	FinishedAt   sql.NullInt64
}

const stepCols = `run_id, tool_call_id, chat_id, name, server, tool, arguments, read_only, idempotent, state,
	request_state, attempts, outcome, result, duration_ms, started_at, finished_at`

func (s *ToolStep) dest() []any {
	return []any{&s.RunID, &s.ToolCallID, &s.ChatID, &s.Name, &s.Server, &s.Tool, &s.Arguments, &s.ReadOnly, &s.Idempotent,
		&s.State, &s.RequestState, &s.Attempts, &s.Outcome, &s.Result, &s.DurationMS, &s.StartedAt, &s.FinishedAt}
}

// InsertToolStep records a step.
func (Queries) InsertToolStep(ctx context.Context, h Handle, s ToolStep) error {
	return insertRow(ctx, h, "tool_steps", stepCols, &s)
}

// GetToolStep reads one step.
func (Queries) GetToolStep(ctx context.Context, h Handle, runID, toolCallID string) (ToolStep, error) {
	return scan[ToolStep](h.QueryRowContext(ctx, `SELECT `+stepCols+` FROM tool_steps WHERE run_id = ? AND tool_call_id = ?`,
		runID, toolCallID))
}

// UpdateToolStep writes a step's state, what the server asked, attempts
// and result.
func (Queries) UpdateToolStep(ctx context.Context, h Handle, s ToolStep) error {
	return expectOne(h.ExecContext(ctx,
		`UPDATE tool_steps SET state = ?, request_state = ?, attempts = ?, outcome = ?, result = ?, duration_ms = ?,
		   finished_at = ? WHERE run_id = ? AND tool_call_id = ?`,
		s.State, s.RequestState, s.Attempts, s.Outcome, s.Result, s.DurationMS, s.FinishedAt, s.RunID, s.ToolCallID))
}

func querySteps(ctx context.Context, h Handle, where string, args ...any) ([]ToolStep, error) {
	return queryAll(ctx, h, scan[ToolStep], `SELECT `+stepCols+` FROM tool_steps WHERE `+where+` ORDER BY started_at, rowid`, args...)
}

// ChatToolSteps lists a chat's steps, oldest first.
func (Queries) ChatToolSteps(ctx context.Context, h Handle, chatID string) ([]ToolStep, error) {
	return querySteps(ctx, h, `chat_id = ?`, chatID)
}

// RunToolSteps lists a run's steps, oldest first.
func (Queries) RunToolSteps(ctx context.Context, h Handle, runID string) ([]ToolStep, error) {
	return querySteps(ctx, h, `run_id = ?`, runID)
}
