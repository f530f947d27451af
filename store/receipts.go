package store

import (
	"context"
	"database/sql"
)

// Receipt is the stored first result of a mutating command.
type Receipt struct {
	CommandID string
	ChatID    sql.NullString
	Kind      string
	ArgsHash  string
	Result    string // JSON
	CreatedAt int64
}

// GetReceipt reads a receipt by command id.
func (Queries) GetReceipt(ctx context.Context, h Handle, commandID string) (Receipt, error) {
	var r Receipt
	err := h.QueryRowContext(ctx,
		`SELECT command_id, chat_id, kind, args_hash, result, created_at FROM receipts WHERE command_id = ?`, commandID).
		Scan(&r.CommandID, &r.ChatID, &r.Kind, &r.ArgsHash, &r.Result, &r.CreatedAt)
	return r, noRow(err)
}

// InsertReceipt stores a command's first result.
func (Queries) InsertReceipt(ctx context.Context, h Handle, r Receipt) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO receipts (command_id, chat_id, kind, args_hash, result, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		r.CommandID, r.ChatID, r.Kind, r.ArgsHash, r.Result, r.CreatedAt)
	return err
}
