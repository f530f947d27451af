package store

import (
	"errors"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ReadOnlyError is a write refused because the database cannot be written:
// the file's permissions, its directory's or a read-only mount. Reads
// still work; nothing was changed.
type ReadOnlyError struct {
	Path   string
	Reason string
}

func (e *ReadOnlyError) Error() string {
	return "the database " + e.Path + " is read-only (" + e.Reason + "); nothing was changed"
}

// readOnlyReason says why this process cannot write the database at path,
// or "" when it can. Permissions are checked as the kernel will check the
// writes (effective ids: root may write a 0400 file). The directory counts
// because SQLite creates the WAL and its index beside the file.
func readOnlyReason(path string) string {
	why := func(err error, what string) string {
		if errors.Is(err, unix.EROFS) {
			return "it is on a read-only file system"
		}
		return what
	}
	if err := unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS); err != nil {
		return why(err, "the file's permissions do not let this user write it")
	}
	dir := filepath.Dir(path)
	if err := unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK, unix.AT_EACCESS); err != nil {
		return why(err, "its directory "+dir+" is not writable by this user")
	}
	return ""
}

// writable refuses a write before it starts when the database cannot be
// written, or when its path no longer names the file open (one stat).
func (s *Store) writable() error {
	if s.readOnly != "" {
		return &ReadOnlyError{Path: s.path, Reason: s.readOnly}
	}
	if why := s.CheckFile(); why != "" {
		return &GoneError{Path: s.path, Why: why}
	}
	return nil
}

// writeError is err of a write, with SQLite's read-only refusals and a
// damaged file named.
func (s *Store) writeError(err error) error { return asCorrupt(s.path, asReadOnly(s.path, err)) }

// asReadOnly turns SQLite's read-only refusals (SQLITE_READONLY and its
// whole family) into a ReadOnlyError naming the file; any other error is
// returned as it is.
func asReadOnly(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_READONLY {
		return err
	}
	reason := "SQLite refused to write it: " + se.Error()
	if se.Code() == sqlite3.SQLITE_READONLY_DIRECTORY {
		reason = "its directory " + filepath.Dir(path) + " is not writable by this user"
	}
	return &ReadOnlyError{Path: path, Reason: reason}
}

// IsBusy reports whether err is SQLite's SQLITE_BUSY (any extended code):
// another connection held the lock it needed for longer than BusyTimeout.
// Nothing was written.
func IsBusy(err error) bool { return sqliteCode(err)&0xff == sqlite3.SQLITE_BUSY }

// BusyTimeout is how long a connection waits for another's lock before
// SQLITE_BUSY.
const BusyTimeout = 10 * time.Second
