// Package store is followup's SQLite database: embedded numbered migrations,
// transactions and typed reads and writes. It knows nothing of forms, the UI
// or model providers.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
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

	watchMu sync.Mutex
	watch   *sql.Conn
}

// OpenError says why a database file could not be used. The file is left as
// it was.
type OpenError struct {
	Path   string
	Reason string
}

func (e *OpenError) Error() string {
	return fmt.Sprintf("cannot open database %s: %s", e.Path, e.Reason)
}

var sqliteHeader = []byte("SQLite format 3\x00")

// Open opens (creating when missing) the database at path and brings its
// schema up to date. A new file is created 0600 in a 0700 directory. A file
// that is unreadable or not a SQLite database is refused untouched.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := prepareFile(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, &OpenError{path, err.Error()}
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	r, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		w.Close()
		return nil, &OpenError{path, err.Error()}
	}
	r.SetMaxOpenConns(4)
	s := &Store{path: path, w: w, r: r}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, &OpenError{path, err.Error()}
	}
	return s, nil
}

// mmapSize is how much of the file a reader connection maps: every page of
// a database well beyond the budgeted size (DESIGN §13).
const mmapSize = 1 << 30

func dsn(path string, writer bool) string {
	v := url.Values{}
	v.Add("_pragma", "busy_timeout(10000)")
	v.Add("_pragma", "foreign_keys(1)")
	v.Add("_pragma", "synchronous(FULL)")
	if writer {
		// journal_mode is set by migrate, after it has checked the file is
		// followup's: the mode is written into the file.
		v.Add("_txlock", "immediate")
	} else {
		// Readers map the file instead of copying each page they read
		// into a freshly allocated page-cache buffer, which a short-lived
		// process pays for with a page fault per page: reading the few
		// hundred pages of the pending list cold costs several times less.
		// Writes still go through the page cache and write(2).
		v.Add("_pragma", "mmap_size("+strconv.Itoa(mmapSize)+")")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + v.Encode()
}

// prepareFile makes sure path is either absent (and then creates it with safe
// permissions) or a readable SQLite file.
func prepareFile(path string) error {
	f, err := os.Open(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return &OpenError{path, err.Error()}
		}
		nf, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return &OpenError{path, err.Error()}
		}
		if nf != nil {
			nf.Close()
		}
		return nil
	case err != nil:
		return &OpenError{path, "cannot read the file: " + unwrapPathError(err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return &OpenError{path, err.Error()}
	}
	if st.IsDir() {
		return &OpenError{path, "it is a directory"}
	}
	if st.Size() == 0 {
		return nil
	}
	head := make([]byte, len(sqliteHeader))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, sqliteHeader) {
		return &OpenError{path, "not a followup database (the file is not SQLite); it was left untouched"}
	}
	return nil
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes both pools.
func (s *Store) Close() error {
	s.watchMu.Lock()
	if s.watch != nil {
		s.watch.Close()
		s.watch = nil
	}
	s.watchMu.Unlock()
	return errors.Join(s.r.Close(), s.w.Close())
}

// DataVersion changes whenever another connection commits to the database;
// the UI polls it to notice other processes' writes.
func (s *Store) DataVersion(ctx context.Context) (int64, error) {
	// data_version is per connection: ask the same one every time.
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.watch == nil {
		c, err := s.r.Conn(ctx)
		if err != nil {
			return 0, err
		}
		s.watch = c
	}
	var v int64
	err := s.watch.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	return v, err
}

// Now is the store's clock in unix milliseconds.
func Now() int64 { return time.Now().UnixMilli() }
