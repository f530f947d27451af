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

// NewChatDraftIsNewest reports whether text typed in a new chat (the
// draft of chat "") was saved after every active chat last changed: the
// newest thing the user did is that text.
func (Queries) NewChatDraftIsNewest(ctx context.Context, h Handle) (bool, error) {
	var newest bool
	err := h.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM composer_drafts d
		WHERE d.chat_id = '' AND d.text <> ''
		AND d.updated_at > COALESCE((SELECT MAX(updated_at) FROM chats WHERE state = 'active'), 0))`).Scan(&newest)
	return newest, err
}
