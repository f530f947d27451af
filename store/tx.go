package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
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
// and commits it durably, or rolls back what fn wrote when fn fails. A
// database this process cannot write refuses with a ReadOnlyError naming
// the file.
//
// Writes that arrive while another is committing are committed together:
// each fn runs in its own savepoint of one transaction, in arrival order,
// and one durable commit answers them all. A hundred agents asking at once
// then wait for one disk flush, not a hundred in a row
// (docs/performance.md, the serve rows).
func (s *Store) Write(ctx context.Context, fn func(tx Handle) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	w := &queuedWrite{ctx: ctx, fn: fn, done: make(chan error, 1)}
	q := &s.writes
	q.mu.Lock()
	q.queue = append(q.queue, w)
	lead := !q.busy
	q.busy = true
	q.mu.Unlock()
	if lead {
		s.commitQueued()
	}
	for wait := ctx.Done(); ; {
		select {
		case err := <-w.done:
			if p, ok := err.(panicked); ok {
				panic(p.v) // in the goroutine whose write it was
			}
			if err != errLead {
				return err
			}
			s.commitQueued()
		case <-wait:
			if q.withdraw(w) {
				return ctx.Err()
			}
			wait = nil // taken into a commit already: its outcome comes
		}
	}
}

// withdraw takes w out of the queue; false when a commit has taken it.
func (q *writeQueue) withdraw(w *queuedWrite) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.Index(q.queue, w)
	if i < 0 {
		return false
	}
	q.queue = slices.Delete(q.queue, i, i+1)
	if i == 0 && len(q.queue) > 0 && len(w.done) > 0 {
		// w was told to lead: the next in line leads instead.
		<-w.done
		q.queue[0].done <- errLead
	} else if i == 0 && len(w.done) > 0 {
		<-w.done
		q.busy = false
	}
	return true
}

// writeQueue holds the writes waiting for the one committing now.
type writeQueue struct {
	mu    sync.Mutex
	queue []*queuedWrite
	busy  bool // a writer is committing; the next leads when it is done
}

type queuedWrite struct {
	ctx  context.Context
	fn   func(tx Handle) error
	done chan error // errLead, then the write's outcome
}

// errLead tells a queued writer to commit the queue itself.
var errLead = errors.New("lead the next group commit")

// commitQueued commits every write queued so far in one transaction, then
// hands the queue to the first writer that arrived meanwhile.
func (s *Store) commitQueued() {
	q := &s.writes
	q.mu.Lock()
	batch := q.queue
	q.queue = nil
	q.mu.Unlock()
	outcome := make([]error, len(batch))
	defer func() {
		for i, w := range batch {
			w.done <- outcome[i]
		}
		q.mu.Lock()
		if len(q.queue) > 0 {
			q.queue[0].done <- errLead
		} else {
			q.busy = false
		}
		q.mu.Unlock()
	}()
	// A write alone begins under its caller's context, as it would
	// without company; a shared transaction belongs to no one caller.
	begin := context.Background()
	if len(batch) == 1 {
		begin = batch[0].ctx
	}
	tx, err := s.w.BeginTx(begin, nil)
	if err != nil {
		fill(outcome, s.writeError(err))
		return
	}
	shared, ok := len(batch) > 1, false
	for i, w := range batch {
		err, lost := runSavepoint(tx, w, shared)
		if lost != nil {
			tx.Rollback()
			fill(outcome, s.writeError(lost))
			if _, isPanic := err.(panicked); isPanic {
				outcome[i] = err
			}
			return
		}
		outcome[i], ok = s.writeError(err), ok || err == nil
	}
	if !ok {
		tx.Rollback()
		return
	}
	if err := tx.Commit(); err != nil {
		for i := range outcome {
			if outcome[i] == nil {
				outcome[i] = s.writeError(err)
			}
		}
	}
}

// runSavepoint runs w's fn in tx, inside a savepoint when others share the
// transaction, so that a failed fn takes back only what it wrote. lost
// says SQLite ended the shared transaction itself (a full disk, an I/O
// error): every write in it is lost.
func runSavepoint(tx *sql.Tx, w *queuedWrite, shared bool) (err, lost error) {
	if err := w.ctx.Err(); err != nil {
		return err, nil
	}
	if !shared {
		return call(w.fn, tx), nil
	}
	if _, err := tx.Exec("SAVEPOINT write"); err != nil {
		return err, err
	}
	err = call(w.fn, detached{tx})
	if err != nil {
		if _, rerr := tx.Exec("ROLLBACK TO write"); rerr != nil {
			return err, rerr
		}
	}
	if _, rerr := tx.Exec("RELEASE write"); rerr != nil {
		return err, rerr
	}
	return err, nil
}

// call runs fn; a panic becomes its outcome, raised again by the Write
// whose fn it was, not in the goroutine committing for everyone.
func call(fn func(tx Handle) error, h Handle) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked{r}
		}
	}()
	return fn(h)
}

// panicked carries a write's panic back to its caller.
type panicked struct{ v any }

func (p panicked) Error() string { return fmt.Sprint("a write panicked: ", p.v) }

// detached runs a shared transaction's statements whatever their caller's
// context says later: the driver interrupts a statement whose context ends,
// and an interrupted write rolls back the whole transaction — the other
// callers' writes with it. A write whose caller gave up before it began is
// not run at all (runSavepoint).
type detached struct{ tx *sql.Tx }

func (d detached) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return d.tx.ExecContext(context.WithoutCancel(ctx), query, args...)
}

func (d detached) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.tx.QueryContext(context.WithoutCancel(ctx), query, args...)
}

func (d detached) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return d.tx.QueryRowContext(context.WithoutCancel(ctx), query, args...)
}

func fill(errs []error, err error) {
	for i := range errs {
		errs[i] = err
	}
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

// insertRow inserts a row of cols whose values rec's dest points to, in
// order (database/sql reads a value through its pointer).
func insertRow(ctx context.Context, h Handle, table, cols string, rec interface{ dest() []any }) error {
	dest := rec.dest()
	_, err := h.ExecContext(ctx, `INSERT INTO `+table+` (`+cols+`) VALUES (`+strings.Repeat("?, ", len(dest)-1)+`?)`, dest...)
	return err
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
