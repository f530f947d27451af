package store

import (
	"errors"

	"modernc.org/sqlite"
)

// SQLite's primary codes of a file whose pages are not what they should
// be: SQLITE_CORRUPT (a page past the header damaged) and SQLITE_NOTADB
// (the header itself).
const (
	sqliteCorrupt = 11
	sqliteNotADB  = 26
)

// IsCorrupt reports whether err is SQLite finding the database file
// damaged. The statement that met it changed nothing.
func IsCorrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqliteCorrupt, sqliteNotADB:
		return true
	}
	return false
}

// CorruptError is a read or write that met a damaged database file, with
// the file's path. Nothing was changed.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return "the database " + e.Path + " is damaged: " + e.Err.Error()
}

func (e *CorruptError) Unwrap() error { return e.Err }

// asCorrupt names the file in SQLite's report of a damaged one; any other
// error is returned as it is.
func asCorrupt(path string, err error) error {
	if IsCorrupt(err) {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			return &CorruptError{Path: path, Err: err}
		}
	}
	return err
}
