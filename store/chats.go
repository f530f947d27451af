package store

import (
	"context"
	"database/sql"
	"errors"
)

// Chat states.
const (
	ChatActive   = "active"
	ChatArchived = "archived"
)

// Chat is one conversation.
type Chat struct {
	ID        string
	Title     string
	State     string
	CreatedAt int64
	UpdatedAt int64
}

const chatCols = `id, title, state, created_at, updated_at`

func (c *Chat) dest() []any { return []any{&c.ID, &c.Title, &c.State, &c.CreatedAt, &c.UpdatedAt} }

// InsertChat creates a chat.
func (Queries) InsertChat(ctx context.Context, h Handle, c Chat) error {
	return insertRow(ctx, h, "chats", chatCols, &c)
}

// GetChat reads one chat.
func (Queries) GetChat(ctx context.Context, h Handle, id string) (Chat, error) {
	return scan[Chat](h.QueryRowContext(ctx, `SELECT `+chatCols+` FROM chats WHERE id = ?`, id))
}

// CountTitled counts the chats updated since since (ms) titled title or
// title followed by " (n)"; the bound keeps the read on chats_updated.
func (Queries) CountTitled(ctx context.Context, h Handle, title string, since int64) (int, error) {
	var n int
	err := h.QueryRowContext(ctx, `SELECT COUNT(*) FROM chats WHERE updated_at >= ? AND (title = ? OR instr(title, ?) = 1)`,
		since, title, title+" (").Scan(&n)
	return n, err
}

// ChatCursor is a place in the list of chats, most recently updated first:
// the last chat of a page. The zero cursor is the start of the list.
type ChatCursor struct {
	UpdatedAt int64
	ID        string
}

// The chat list is read page by page along chats_updated: a page after a
// cursor starts at the cursor's row and reads only the rows it returns
// (plus the few that share the cursor's time), however many chats there
// are.
const (
	listChatsFirst = `SELECT ` + chatCols + ` FROM chats ORDER BY updated_at DESC, id LIMIT ?`
	listChatsAfter = `SELECT ` + chatCols + ` FROM chats WHERE updated_at <= ? AND NOT (updated_at = ? AND id <= ?)
		ORDER BY updated_at DESC, id LIMIT ?`
)

// ListChats returns up to limit chats after the cursor, most recently
// updated first.
func (Queries) ListChats(ctx context.Context, h Handle, after ChatCursor, limit int) ([]Chat, error) {
	query, args := listChatsFirst, []any{limit}
	if after != (ChatCursor{}) {
		query, args = listChatsAfter, []any{after.UpdatedAt, after.UpdatedAt, after.ID, limit}
	}
	return queryAll(ctx, h, scan[Chat], query, args...)
}

// SetChatState archives or reactivates a chat. Its updated_at stays: the
// chat keeps its place in the list (docs/behaviour.md).
func (Queries) SetChatState(ctx context.Context, h Handle, id, state string) error {
	return expectOne(h.ExecContext(ctx, `UPDATE chats SET state = ? WHERE id = ?`, state, id))
}

// TouchChat marks a chat as updated.
func (Queries) TouchChat(ctx context.Context, h Handle, id string, now int64) error {
	_, err := h.ExecContext(ctx, `UPDATE chats SET updated_at = ? WHERE id = ?`, now, id)
	return err
}

// DeleteChat removes a chat and, through cascades, everything that names it.
func (Queries) DeleteChat(ctx context.Context, h Handle, id string) error {
	return expectOne(h.ExecContext(ctx, `DELETE FROM chats WHERE id = ?`, id))
}

// LatestChatID is the most recently updated active chat, else the most
// recently updated chat, else "".
func (Queries) LatestChatID(ctx context.Context, h Handle) (string, error) {
	var id string
	err := h.QueryRowContext(ctx,
		`SELECT id FROM chats WHERE state = 'active' ORDER BY updated_at DESC, id LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = h.QueryRowContext(ctx, `SELECT id FROM chats ORDER BY updated_at DESC, id LIMIT 1`).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}
