package store

import (
	"context"
	"database/sql"
	"slices"
)

// Message roles. user, assistant and tool are model history; request and
// notice are transcript-only entries (a request card, a status notice).
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	RoleRequest   = "request"
	RoleNotice    = "notice"
)

// Message is one transcript entry and/or one entry of a run's model history.
type Message struct {
	ID         int64
	ChatID     string
	RunID      sql.NullString
	Role       string
	Content    string
	ToolCalls  sql.NullString // JSON array, assistant turns only
	ToolCallID string
	ToolName   string
	RequestID  sql.NullString
	DeliveryID sql.NullInt64
	Visible    bool // shown in the transcript
	ForModel   bool // part of the run's model history
	CreatedAt  int64
}

const msgCols = `id, chat_id, run_id, role, content, tool_calls, tool_call_id, tool_name, request_id, delivery_id, visible, for_model, created_at`

func (m *Message) dest() []any {
	return []any{&m.ID, &m.ChatID, &m.RunID, &m.Role, &m.Content, &m.ToolCalls, &m.ToolCallID, &m.ToolName,
		&m.RequestID, &m.DeliveryID, &m.Visible, &m.ForModel, &m.CreatedAt}
}

// InsertMessage appends a message and returns its id.
func (Queries) InsertMessage(ctx context.Context, h Handle, m Message) (int64, error) {
	var id int64
	err := h.QueryRowContext(ctx,
		`INSERT INTO messages (chat_id, run_id, role, content, tool_calls, tool_call_id, tool_name, request_id, delivery_id, visible, for_model, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		m.ChatID, m.RunID, m.Role, m.Content, m.ToolCalls, m.ToolCallID, m.ToolName, m.RequestID, m.DeliveryID,
		m.Visible, m.ForModel, m.CreatedAt).Scan(&id)
	return id, err
}

// Transcript returns up to limit visible messages of a chat with id below
// before (0 = from the newest), oldest first: the UI loads old pages lazily.
func (Queries) Transcript(ctx context.Context, h Handle, chatID string, before int64, limit int) ([]Message, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	ms, err := queryAll(ctx, h, scan[Message],
		`SELECT `+msgCols+` FROM messages WHERE chat_id = ? AND visible = 1 AND id < ? ORDER BY id DESC LIMIT ?`,
		chatID, before, limit)
	slices.Reverse(ms)
	return ms, err
}

// LastTurn is the run's newest assistant turn (ErrNotFound before the
// first), read through messages_run from the end.
func (Queries) LastTurn(ctx context.Context, h Handle, runID string) (Message, error) {
	return scan[Message](h.QueryRowContext(ctx, `SELECT `+msgCols+` FROM messages
		WHERE run_id = ? AND role = 'assistant' AND for_model = 1 ORDER BY id DESC LIMIT 1`, runID))
}

// ToolResultsAfter lists the run's tool results newer than message id, in
// order: what the tools of a turn returned.
func (Queries) ToolResultsAfter(ctx context.Context, h Handle, runID string, id int64) ([]Message, error) {
	return queryAll(ctx, h, scan[Message], `SELECT `+msgCols+` FROM messages
		WHERE run_id = ? AND id > ? AND role = 'tool' AND for_model = 1 ORDER BY id`, runID, id)
}

// History returns a run's model history in order.
func (Queries) History(ctx context.Context, h Handle, runID string) ([]Message, error) {
	return queryAll(ctx, h, scan[Message],
		`SELECT `+msgCols+` FROM messages WHERE run_id = ? AND for_model = 1 ORDER BY id`, runID)
}

// ChatMessages returns every message of a chat (visible or not), in order.
func (Queries) ChatMessages(ctx context.Context, h Handle, chatID string) ([]Message, error) {
	return queryAll(ctx, h, scan[Message], `SELECT `+msgCols+` FROM messages WHERE chat_id = ? ORDER BY id`, chatID)
}

// RunMessages returns every message of a run, in order.
func (Queries) RunMessages(ctx context.Context, h Handle, runID string) ([]Message, error) {
	return queryAll(ctx, h, scan[Message], `SELECT `+msgCols+` FROM messages WHERE run_id = ? ORDER BY id`, runID)
}

// MessageForDelivery reports whether a delivery already reached the history.
func (Queries) MessageForDelivery(ctx context.Context, h Handle, deliveryID int64) (bool, error) {
	var n int
	err := h.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE delivery_id = ?`, deliveryID).Scan(&n)
	return n > 0, err
}

// UnreadUserMessages reports whether the run's history has a user message
// newer than id.
func (Queries) UnreadUserMessages(ctx context.Context, h Handle, runID string, id int64) (bool, error) {
	var n int
	err := h.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM messages WHERE run_id = ? AND for_model = 1 AND role = 'user' AND id > ?`, runID, id).Scan(&n)
	return n > 0, err
}

// MoveAfter re-appends a run's user messages newer than id (those written
// while a model call was in flight) so they follow what was written since.
func (Queries) MoveAfter(ctx context.Context, h Handle, runID string, id int64) error {
	late, err := queryAll(ctx, h, scan[Message], `SELECT `+msgCols+` FROM messages
		WHERE run_id = ? AND role = 'user' AND delivery_id IS NULL AND id > ? ORDER BY id`, runID, id)
	if err != nil {
		return err
	}
	for _, m := range late {
		if _, err := h.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, m.ID); err != nil {
			return err
		}
		if _, err := (Queries{}).InsertMessage(ctx, h, m); err != nil {
			return err
		}
	}
	return nil
}

// EarlierConversation is the chat's conversation before a run: the user's
// messages and the agent's replies of its earlier runs (no tool traffic, no
// delivered answers), the newest limit of them, oldest first.
func (Queries) EarlierConversation(ctx context.Context, h Handle, chatID string, runSeq int64, limit int) ([]Message, error) {
	ms, err := queryAll(ctx, h, scan[Message], `SELECT `+msgCols+` FROM messages
		WHERE chat_id = ? AND for_model = 1 AND delivery_id IS NULL
		  AND (role = 'user' OR (role = 'assistant' AND content <> ''))
		  AND run_id IN (SELECT id FROM runs WHERE chat_id = ? AND seq < ?)
		ORDER BY id DESC LIMIT ?`, chatID, chatID, runSeq, limit)
	slices.Reverse(ms)
	return ms, err
}
