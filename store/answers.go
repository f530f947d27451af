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
func (Queries) InsertAnswer(ctx context.Context, h Handle, a Answer) error {
	_, err := h.ExecContext(ctx,
		`INSERT INTO answers (request_id, revision, digest, vals, origins, command_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a.RequestID, a.Revision, a.Digest, a.Values, a.Origins, a.CommandID, a.CreatedAt)
	return err
}

// GetAnswer reads a request's answer.
func (Queries) GetAnswer(ctx context.Context, h Handle, requestID string) (Answer, error) {
	var a Answer
	err := h.QueryRowContext(ctx,
		`SELECT request_id, revision, digest, vals, origins, command_id, created_at FROM answers WHERE request_id = ?`,
		requestID).Scan(&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return a, err
}

// AnswersOf reads the answers of the named requests, by request id.
func (Queries) AnswersOf(ctx context.Context, h Handle, ids []string) (map[string]Answer, error) {
	out := map[string]Answer{}
	err := chunks(ids, func(part []string) error {
		marks, args := inList(part)
		return eachRow(ctx, h, func(sc rowScanner) error {
			var a Answer
			if err := sc.Scan(&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt); err != nil {
				return err
			}
			out[a.RequestID] = a
			return nil
		}, `SELECT request_id, revision, digest, vals, origins, command_id, created_at FROM answers
			 WHERE request_id IN (`+marks+`)`, args...)
	})
	return out, err
}
