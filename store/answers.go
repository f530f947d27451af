package store

import (
	"context"
	"database/sql"
	"errors"
)

// Answer is a confirmed answer.
type Answer struct {
	RequestID string
	Revision  int
	Digest    string
	Values    string // JSON object
	Origins   string // JSON object field -> "declaration" | "response"
	CommandID string
	CreatedAt int64
}

// InsertAnswer records a confirmed answer.
func (q Q) InsertAnswer(ctx context.Context, a Answer) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO answers (request_id, revision, digest, vals, origins, command_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a.RequestID, a.Revision, a.Digest, a.Values, a.Origins, a.CommandID, a.CreatedAt)
	return err
}

// GetAnswer reads a request's answer.
func (q Q) GetAnswer(ctx context.Context, requestID string) (Answer, error) {
	var a Answer
	err := q.db.QueryRowContext(ctx,
		`SELECT request_id, revision, digest, vals, origins, command_id, created_at FROM answers WHERE request_id = ?`,
		requestID).Scan(&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return a, err
}
