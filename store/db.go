// Package store is followup's SQLite database: embedded numbered migrations,
// transactions and typed reads and writes. It knows nothing of forms, the UI
// or model providers.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned by typed reads when no row matches.
var ErrNotFound = errors.New("not found")

// Store is an open database: one writer connection (every write is BEGIN
// IMMEDIATE) and a small pool of readers that never block on the writer.
type Store struct {
	path string
	w    *sql.DB
	r    *sql.DB
	// real is path with symlinks resolved: the lease file is named after
	// it, as SQLite names the files it keeps beside the database.
	real string
	// readOnly says why this process cannot write the file, or "".
	readOnly string
	// ident is the file opened; gone says, once it is known, that the
	// path no longer names it (gone.go).
	ident fileID
	gone  atomic.Pointer[string]

	sessionLocks lockFile // the serve sessions' leases (sessions.go)
	writes       writeQueue
}

// OpenError says why a database file could not be used. The file is left as
// it was.
type OpenError struct {
	Path   string
	Reason string
	// Err is the error Reason was made from, when there was one: a caller
	// tells a lock another process held (IsBusy) from a file it cannot
	// use.
	Err error
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("cannot open database %s: %s", e.Path, e.Reason)
}

func (e *OpenError) Unwrap() error { return e.Err }

// Open opens (creating when missing) the database at path and brings its
// schema up to date. A new file is created 0600 in a 0700 directory. What is
// not a regular file, not SQLite or not followup's is refused before
// anything is written to it. A database this process may not write opens
// for reading; every write then fails with a ReadOnlyError.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	h, err := prepareFile(path)
	if err != nil {
		return nil, err
	}
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	own, err := look(ctx, path, h, ms)
	if err != nil {
		return nil, &OpenError{Path: path, Reason: err.Error(), Err: err}
	}
	s := &Store{path: path, real: h.real, readOnly: readOnlyReason(h.real)}
	if s.readOnly != "" {
		// No journal mode, no WAL index created beside another user's
		// file: only what is already there is read.
		kind := readOnlyKind(h)
		s.w, s.r = openPool(path, dsn(path, kind), 1), openPool(path, dsn(path, kind), readerConns)
		err = s.checkReadOnly(ctx, own, ms)
	} else {
		s.w, s.r = openPool(path, dsn(path, writerConn), 1), openPool(path, mapped(dsn(path, readerConn), opts), readerConns)
		err = asReadOnly(path, s.migrate(ctx, own, ms))
	}
	if err != nil {
		s.Close()
		return nil, &OpenError{Path: path, Reason: err.Error(), Err: err}
	}
	s.ident = identify(path)
	return s, nil
}

// readerConns is how many connections the reader pool opens at most.
const readerConns = 4

func openPool(path, dsn string, conns int) *sql.DB {
	db, err := openCachedPool(path, dsn) // connections keep their prepared statements (stmts.go)
	if err != nil {
		db, _ = sql.Open("sqlite", dsn) // only fails for an unknown driver; dsn's error comes on first use
	}
	db.SetMaxOpenConns(conns)
	// Every connection stays open once opened (database/sql keeps two): one
	// closed after a burst of reads takes its prepared statements with it.
	db.SetMaxIdleConns(conns)
	if conns == 1 {
		db.SetConnMaxIdleTime(0)
	}
	return db
}

// busyTimeout is how long a connection waits for another's lock
// (BusyTimeout; shorter only in this package's tests).
var busyTimeout = BusyTimeout

// connKind is what a connection is for.
type connKind int

const (
	writerConn    connKind = iota // the one writer: BEGIN IMMEDIATE
	readerConn                    // the reader pool
	readOnlyConn                  // reads only, locking like a reader
	immutableConn                 // reads the file as it lies: no lock, nothing created beside it
)

func dsn(path string, kind connKind) string {
	v := url.Values{}
	v.Add("_pragma", "busy_timeout("+strconv.Itoa(int(busyTimeout/time.Millisecond))+")")
	v.Add("_pragma", "foreign_keys(1)")
	switch kind {
	case writerConn:
		v.Add("_pragma", "synchronous(FULL)")
		// Each write of a grouped commit runs in a savepoint, whose undo
		// pages SQLite keeps in a sub-journal: in memory, not a temporary
		// file written page by page (most of the file writes a commit of
		// many agents' questions made).
		v.Add("_pragma", "temp_store(MEMORY)")
		// journal_mode is set by migrate, after it has checked the file is
		// followup's: the mode is written into the file.
		v.Add("_txlock", "immediate")
	case readerConn:
		v.Add("_pragma", "synchronous(FULL)") // whether readers map the file: see MapFile
	case readOnlyConn:
		v.Add("mode", "ro")
	case immutableConn:
		v.Add("mode", "ro")
		v.Add("immutable", "1")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + v.Encode()
}

// look decides whose file path is, reading only. A file with nothing in it
// is no one's. A file with a log (-wal) beside it is judged on what SQLite
// will read — the log replayed over the file, which may replace its first
// page and with it the mark — through a read-only connection, which never
// checkpoints the log into the file. Without a log, a marked file is known
// from its header; any other SQLite file is read through a read-only
// connection that locks like a reader (a rollback-journal file, or a WAL
// file with its index beside it) or reads the file as it lies, creating
// nothing beside it.
func look(ctx context.Context, path string, h header, ms []migration) (owner, error) {
	logged := h.size > 0 && nonEmptyFile(h.real+"-wal")
	switch {
	case h.size == 0:
		return ownerNone, nil
	case logged:
	case h.appID == ApplicationID:
		return ownerMarked, nil
	case h.appID != 0:
		return 0, foreignMark(h.appID)
	}
	kind := readOnlyKind(h)
	if logged && readOnlyReason(h.real) == "" {
		// What this process will read is the log too: its writer would
		// replay it (creating the index beside it when missing).
		kind = readOnlyConn
	}
	db := openPool(path, dsn(path, kind), 1)
	defer db.Close()
	own, err := classifyRead(ctx, db, ms)
	var fe *ForeignError
	if logged && h.appID == ApplicationID && errors.As(err, &fe) {
		return 0, &ForeignError{"the log beside it, " + h.real + "-wal, is another database's: read with it, " + fe.Why}
	}
	return own, err
}

// readOnlyKind is how to read path without writing anything to or beside
// it. A WAL file whose log and index are there is read like any reader
// would; without them there is nothing but the file to read (and SQLite
// would create both).
func readOnlyKind(h header) connKind {
	if h.wal && (!nonEmptyFile(h.real+"-wal") || !exists(h.real+"-shm")) {
		return immutableConn
	}
	return readOnlyConn
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes both pools.
func (s *Store) Close() error {
	if s.w == nil {
		return nil
	}
	return errors.Join(s.r.Close(), s.w.Close())
}

// ReadOnly says why this process cannot write the database, or "" when it
// can: the file's permissions, or (once CheckFile found it) the file
// removed or replaced at its path.
func (s *Store) ReadOnly() string {
	if s.readOnly != "" {
		return s.readOnly
	}
	if g := s.gone.Load(); g != nil {
		return *g
	}
	return ""
}

// Now is the store's clock in unix milliseconds.
func Now() int64 { return time.Now().UnixMilli() }
