package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// Handle is where a query runs: a transaction (Write, ReadTx) or the reader
// pool (Reader). Every query method takes one, so a caller composes several
// aggregates' reads and writes in one transaction by passing the same
// handle to each.
type Handle interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Reader is the reader pool, for a single read outside a transaction. It
// never blocks on the writer.
func (s *Store) Reader() Handle { return s.r }

// Write runs fn in one BEGIN IMMEDIATE transaction on the writer connection
// and commits it durably, or rolls back when fn fails. A database this
// process cannot write refuses with a ReadOnlyError naming the file.
func (s *Store) Write(ctx context.Context, fn func(tx Handle) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.writeError(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.writeError(err)
	}
	return s.writeError(tx.Commit())
}

// ReadTx runs fn in one read transaction on the reader pool, so every query
// in fn sees the same snapshot of the database. A damaged file met on the
// way is reported with its path (CorruptError), as a write's is.
func (s *Store) ReadTx(ctx context.Context, fn func(tx Handle) error) error {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return asCorrupt(s.path, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return asCorrupt(s.path, err)
	}
	return asCorrupt(s.path, tx.Commit())
}

// batchSize bounds the ids bound to one IN list (SQLite allows 32,766
// variables; smaller lists keep each statement cheap to prepare).
const batchSize = 500

// eachIn runs query(marks) for ids in IN lists of at most batchSize ("?,?,…"
// in marks) and calls fn on every row: a list of requests loads what hangs
// off them with one IN list per table instead of a query per request.
func eachIn[T any](ctx context.Context, h Handle, ids []T, query func(marks string) string, fn func(rowScanner) error) error {
	for len(ids) > 0 {
		part := ids[:min(len(ids), batchSize)]
		marks, args := inList(part)
		if err := eachRow(ctx, h, fn, query(marks), args...); err != nil {
			return err
		}
		ids = ids[len(part):]
	}
	return nil
}

// inList returns "?,?,…" for n ids and the ids as query arguments.
func inList[T any](ids []T) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return strings.TrimSuffix(strings.Repeat("?,", len(ids)), ","), args
}

// rowScanner is a row a scan function reads: *sql.Row or *sql.Rows.
type rowScanner = interface{ Scan(...any) error }

// record is a stored type whose dest lists where a row of its columns
// scans to, in order.
type record[T any] interface {
	*T
	dest() []any
}

// scan reads one row into a T; no row is ErrNotFound.
func scan[T any, P record[T]](sc rowScanner) (T, error) {
	var v T
	err := sc.Scan(P(&v).dest()...)
	return v, noRow(err)
}

// noRow turns sql.ErrNoRows into ErrNotFound.
func noRow(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// eachRow runs query and calls fn on every row.
func eachRow(ctx context.Context, h Handle, fn func(rowScanner) error, query string, args ...any) error {
	rows, err := h.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// queryAll runs query and reads every row with scan (nil when none).
func queryAll[T any](ctx context.Context, h Handle, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	var out []T
	err := eachRow(ctx, h, func(sc rowScanner) error {
		v, err := scan(sc)
		out = append(out, v)
		return err
	}, query, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// prefixed qualifies each column of a column list with a table alias.
func prefixed(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = alias + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// expectOne turns an update or delete that matched no row into ErrNotFound.
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

// CommitsElsewhere is a number that changes whenever another connection —
// another process, or another Store on the same file — commits to the
// database; this Store's own commits leave it as it was. It is SQLite's
// data_version as the writer connection sees it (the writer is the only
// connection that commits here, so only others' commits move it).
func (s *Store) CommitsElsewhere(ctx context.Context) (int64, error) {
	var v int64
	err := s.w.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	return v, err
}
