package store

import "context"

// PutComposerDraft saves a chat's composer text; empty text deletes it.
// Saving the text already saved changes nothing.
func (Queries) PutComposerDraft(ctx context.Context, h Handle, chatID, text string, now int64) error {
	if text == "" {
		_, err := h.ExecContext(ctx, `DELETE FROM composer_drafts WHERE chat_id = ?`, chatID)
		return err
	}
	_, err := h.ExecContext(ctx,
		`INSERT INTO composer_drafts (chat_id, text, updated_at) VALUES (?, ?, ?)
		 ON CONFLICT (chat_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at
		 WHERE text <> excluded.text`, chatID, text, now)
	return err
}

// GetComposerDraft reads a chat's composer text ("" when it has none).
func (Queries) GetComposerDraft(ctx context.Context, h Handle, chatID string) (string, error) {
	var text string
	err := h.QueryRowContext(ctx, `SELECT text FROM composer_drafts WHERE chat_id = ?`, chatID).Scan(&text)
	if noRow(err) == ErrNotFound {
		return "", nil
	}
	return text, err
}

// TypedChat is the chat whose unsent text or open form the user saved
// last, when that was after every active chat last changed: the newest
// thing the user did is that typing ("" is text typed in a new chat).
// found is false when nothing typed is newer than the chats.
func (Queries) TypedChat(ctx context.Context, h Handle) (chatID string, found bool, err error) {
	// The candidates are few (what was saved after the newest chat
	// changed); each one's chat is looked up by its key, not tested against
	// a list of every active chat.
	err = h.QueryRowContext(ctx, `WITH since AS (SELECT COALESCE(
			(SELECT updated_at FROM chats WHERE state = 'active' ORDER BY updated_at DESC LIMIT 1), 0) AS t)
		SELECT typed.chat_id FROM (
			SELECT chat_id, updated_at FROM composer_drafts, since WHERE text <> '' AND updated_at > since.t
			UNION ALL
			SELECT r.chat_id, d.updated_at FROM since CROSS JOIN drafts d CROSS JOIN requests r
			WHERE d.updated_at > since.t AND r.id = d.request_id AND r.state = 'pending') AS typed
		LEFT JOIN chats c ON c.id = typed.chat_id
		WHERE typed.chat_id = '' OR c.state = 'active'
		ORDER BY typed.updated_at DESC LIMIT 1`).Scan(&chatID)
	if noRow(err) == ErrNotFound {
		return "", false, nil
	}
	return chatID, err == nil, err
}
