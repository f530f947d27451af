package store

import (
	"context"
	"database/sql"
	"errors"
)

// PendingDoc returns the kept `pending --json` document (migration 0012)
// when it is current — made at the generation the triggers hold now, by a
// build of the same format — and the generation now, for KeepPendingDoc.
func (queries) PendingDoc(ctx context.Context, h Handle, format string) (gen int64, doc string, current bool, err error) {
	var kept sql.NullString
	err = h.QueryRowContext(ctx, `SELECT g.n, d.doc FROM pending_doc_gen AS g
		LEFT JOIN pending_doc AS d ON d.one = 1 AND d.gen = g.n AND d.format = ?`, format).Scan(&gen, &kept)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, nil
	}
	return gen, kept.String, kept.Valid, err
}

// KeepPendingDoc keeps doc as the document made at generation gen, unless
// the generation moved since: something it is made from changed while it
// was made, and it may not show that. It reports whether doc was kept.
func (queries) KeepPendingDoc(ctx context.Context, h Handle, gen int64, format, doc string) (bool, error) {
	res, err := h.ExecContext(ctx, `INSERT INTO pending_doc (one, gen, format, doc)
		SELECT 1, ?, ?, ? WHERE (SELECT n FROM pending_doc_gen) = ?
		ON CONFLICT (one) DO UPDATE SET gen = excluded.gen, format = excluded.format, doc = excluded.doc`,
		gen, format, doc, gen)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}
