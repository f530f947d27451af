package store

import (
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteCode is SQLite's result code of err (extended), 0 for another
// error.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

// IsCorrupt reports whether err is SQLite finding the database file
// damaged: a page past the header (SQLITE_CORRUPT) or the header itself
// (SQLITE_NOTADB). The statement that met it changed nothing.
func IsCorrupt(err error) bool {
	c := sqliteCode(err) & 0xff
	return c == sqlite3.SQLITE_CORRUPT || c == sqlite3.SQLITE_NOTADB
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
