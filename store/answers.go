package store

import "context"

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

const answerCols = `request_id, revision, digest, vals, origins, command_id, created_at`

func (a *Answer) dest() []any {
	return []any{&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt}
}

// InsertAnswer records a confirmed answer.
func (Queries) InsertAnswer(ctx context.Context, h Handle, a Answer) error {
	return insertRow(ctx, h, "answers", answerCols, &a)
}

// GetAnswer reads a request's answer.
func (Queries) GetAnswer(ctx context.Context, h Handle, requestID string) (Answer, error) {
	return scan[Answer](h.QueryRowContext(ctx, `SELECT `+answerCols+` FROM answers WHERE request_id = ?`, requestID))
}

// AnswersOf reads the answers of the named requests, by request id.
func (Queries) AnswersOf(ctx context.Context, h Handle, ids []string) (map[string]Answer, error) {
	out := map[string]Answer{}
	return out, eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT ` + answerCols + ` FROM answers WHERE request_id IN (` + marks + `)`
	}, func(sc rowScanner) error {
		a, err := scan[Answer](sc)
		out[a.RequestID] = a
		return err
	})
}
