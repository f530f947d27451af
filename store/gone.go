package store

import (
	"errors"

	"golang.org/x/sys/unix"
)

// A database removed or replaced at its path while it is open: SQLite goes
// on reading and writing the file it opened, which no other process (and
// no next start) will ever read. The store notices when its path no longer
// names that file, and refuses every write from then on.

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

func identify(path string) fileID {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// GoneError is a write refused because the database file was removed or
// replaced at its path after this process opened it. Nothing was written.
type GoneError struct {
	Path string
	Why  string
}

func (e *GoneError) Error() string {
	return "the database " + e.Path + " cannot be written: " + e.Why + "; this change was not saved"
}

// CheckFile says whether the path still names the file this store opened:
// "" when it does, else why not (removed, or replaced by another file).
// Once the path named another file the answer stays: a file made there
// later is not the one this process has open. It costs one stat.
func (s *Store) CheckFile() string {
	if g := s.gone.Load(); g != nil {
		return *g
	}
	if s.ident == (fileID{}) {
		return ""
	}
	var st unix.Stat_t
	why := ""
	switch err := unix.Stat(s.path, &st); {
	case errors.Is(err, unix.ENOENT):
		why = "the file was removed after followup opened it"
	case err == nil && (uint64(st.Dev) != s.ident.dev || st.Ino != s.ident.ino):
		why = "the file was replaced by another after followup opened it"
	default:
		return ""
	}
	why += ": restart followup"
	s.gone.CompareAndSwap(nil, &why)
	return *s.gone.Load()
}
