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

// InsertChat creates a chat.
func (q Q) InsertChat(ctx context.Context, c Chat) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO chats (id, title, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		c.ID, c.Title, c.State, c.CreatedAt, c.UpdatedAt)
	return err
}

// GetChat reads one chat.
func (q Q) GetChat(ctx context.Context, id string) (Chat, error) {
	var c Chat
	err := q.db.QueryRowContext(ctx,
		`SELECT id, title, state, created_at, updated_at FROM chats WHERE id = ?`, id).
		Scan(&c.ID, &c.Title, &c.State, &c.CreatedAt, &c.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	return c, err
}

// ListChats returns chats, most recently updated first.
func (q Q) ListChats(ctx context.Context, limit int) ([]Chat, error) {
	rows, err := q.db.QueryContext(ctx,
		`SELECT id, title, state, created_at, updated_at FROM chats ORDER BY updated_at DESC, id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Chat
	for rows.Next() {
		var c Chat
		if err := rows.Scan(&c.ID, &c.Title, &c.State, &c.CreatedAt, &c.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// SetChatState archives or reactivates a chat.
func (q Q) SetChatState(ctx context.Context, id, state string, now int64) error {
	return expectOne(q.db.ExecContext(ctx, `UPDATE chats SET state = ?, updated_at = ? WHERE id = ?`, state, now, id))
}

// TouchChat marks a chat as updated.
func (q Q) TouchChat(ctx context.Context, id string, now int64) error {
	_, err := q.db.ExecContext(ctx, `UPDATE chats SET updated_at = ? WHERE id = ?`, now, id)
	return err
}

// DeleteChat removes a chat and, through cascades, everything that names it.
func (q Q) DeleteChat(ctx context.Context, id string) error {
	return expectOne(q.db.ExecContext(ctx, `DELETE FROM chats WHERE id = ?`, id))
}

func expectOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// LatestChatID is the most recently updated active chat, else the most
// recently updated chat, else "".
func (q Q) LatestChatID(ctx context.Context) (string, error) {
	var id string
	err := q.db.QueryRowContext(ctx,
		`SELECT id FROM chats WHERE state = 'active' ORDER BY updated_at DESC, id LIMIT 1`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = q.db.QueryRowContext(ctx, `SELECT id FROM chats ORDER BY updated_at DESC, id LIMIT 1`).Scan(&id)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}
