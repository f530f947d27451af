package store

import (
	"cmp"
	"context"
	"database/sql"
)

// Approval states and scopes.
const (
	ApprovalPending = "pending"
	ApprovalAllowed = "allowed"
	ApprovalDenied  = "denied"
	ApprovalExpired = "expired"

	ScopeOnce = "once"
	ScopeChat = "chat"

	ApprovalTool     = "tool"
	ApprovalSampling = "sampling"
)

// Approval is the user's permission for one MCP tool call, or for one
// sampling request a server made during a call (Kind).
type Approval struct {
	ID          string
	ChatID      string
	RunID       string
	ToolCallID  string
	Kind        string
	Name        string // the model's name of the tool
	Server      string
	Tool        string
	Title       string
	Description string
	Arguments   string // JSON
	Annotations string // JSON of the tool's hints
	State       string
	Scope       string
	CreatedAt   int64
	DecidedAt   sql.NullInt64
	Result      string // a sampling request's reply, as JSON
}

const approvalCols = `id, chat_id, run_id, tool_call_id, kind, name, server, tool, title, description, arguments, annotations,
	state, scope, created_at, decided_at, result`

func (a *Approval) dest() []any {
	return []any{&a.ID, &a.ChatID, &a.RunID, &a.ToolCallID, &a.Kind, &a.Name, &a.Server, &a.Tool, &a.Title, &a.Description,
		&a.Arguments, &a.Annotations, &a.State, &a.Scope, &a.CreatedAt, &a.DecidedAt, &a.Result}
}

// InsertApproval records a pending approval.
func (Queries) InsertApproval(ctx context.Context, h Handle, a Approval) error {
	a.Kind = cmp.Or(a.Kind, ApprovalTool)
	return insertRow(ctx, h, "approvals", approvalCols, &a)
}

// GetApproval reads one approval.
func (Queries) GetApproval(ctx context.Context, h Handle, id string) (Approval, error) {
	return scan[Approval](h.QueryRowContext(ctx, `SELECT `+approvalCols+` FROM approvals WHERE id = ?`, id))
}

// ApprovalFor is the approval asked for one tool call.
func (Queries) ApprovalFor(ctx context.Context, h Handle, runID, toolCallID string) (Approval, error) {
	return scan[Approval](h.QueryRowContext(ctx,
		`SELECT `+approvalCols+` FROM approvals WHERE run_id = ? AND tool_call_id = ? AND kind = 'tool'`, runID, toolCallID))
}

// UpdateApproval writes an approval's decision and result.
func (Queries) UpdateApproval(ctx context.Context, h Handle, a Approval) error {
	return expectOne(h.ExecContext(ctx, `UPDATE approvals SET state = ?, scope = ?, decided_at = ?, result = ? WHERE id = ?`,
		a.State, a.Scope, a.DecidedAt, a.Result, a.ID))
}

// PendingApprovals lists the pending approvals of one chat, or of every
// active chat when chatID is "", oldest first.
func (Queries) PendingApprovals(ctx context.Context, h Handle, chatID string) ([]Approval, error) {
	if chatID != "" {
		return queryAll(ctx, h, scan[Approval], `SELECT `+approvalCols+` FROM approvals INDEXED BY approvals_pending
			WHERE chat_id = ? AND state = 'pending' ORDER BY created_at, id`, chatID)
	}
	return queryAll(ctx, h, scan[Approval], `SELECT `+approvalCols+` FROM approvals INDEXED BY approvals_pending_all
		WHERE state = 'pending' AND `+notArchived+` ORDER BY created_at, id`)
}

// RunApprovals lists a run's approvals in one state.
func (Queries) RunApprovals(ctx context.Context, h Handle, runID, state string) ([]Approval, error) {
	return queryAll(ctx, h, scan[Approval], `SELECT `+approvalCols+` FROM approvals WHERE run_id = ? AND state = ? ORDER BY created_at, id`,
		runID, state)
}

// InsertGrant lets a tool run without asking in a chat.
func (Queries) InsertGrant(ctx context.Context, h Handle, chatID, server, tool string, now int64) error {
	_, err := h.ExecContext(ctx, `INSERT OR IGNORE INTO chat_tool_grants (chat_id, server, tool, created_at) VALUES (?, ?, ?, ?)`,
		chatID, server, tool, now)
	return err
}

// HasGrant reports whether the tool may run without asking in the chat.
func (Queries) HasGrant(ctx context.Context, h Handle, chatID, server, tool string) (bool, error) {
	var n int
	err := h.QueryRowContext(ctx, `SELECT COUNT(*) FROM chat_tool_grants WHERE chat_id = ? AND server = ? AND tool = ?`,
		chatID, server, tool).Scan(&n)
	return n > 0, err
}
