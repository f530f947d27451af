package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// header is what Open reads of the file before SQLite opens it: enough to
// refuse what is not ours without writing, and to know followup's mark.
type header struct {
	// real is the path with every symlink resolved: SQLite names the log,
	// its index and the journal after it, and so does the lease file, so
	// processes that reach one database by different links agree on them.
	real  string
	size  int64
	appID uint32 // SQLite application_id (offset 68)
	wal   bool   // file-format bytes 18–19 say WAL
}

// headerLen is the SQLite file header's length.
const headerLen = 100

var sqliteMagic = []byte("SQLite format 3\x00")

// sidecars are the files SQLite and followup keep beside a database.
var sidecars = []string{"-wal", "-shm", "-journal", "-lease"}

// prepareFile makes sure path names a regular file (following symlinks) or
// a path to create, and reads its header. Nothing here can block: the kind
// of file is known from stat before anything is opened, and the open itself
// is non-blocking, so a FIFO swapped in meanwhile cannot hang it either.
// A missing file is created 0600 in a 0700 directory.
func prepareFile(path string) (header, error) {
	if path == "" {
		return header{}, &OpenError{Path: path, Reason: "no database path given"}
	}
	if strings.HasSuffix(path, string(filepath.Separator)) {
		// Refused before anything is created: MkdirAll would make it.
		return header{}, &OpenError{Path: path, Reason: "it ends in " + string(filepath.Separator) +
			", so it names a directory, not a database file"}
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if lst, lerr := os.Lstat(path); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(path)
			return header{}, &OpenError{Path: path, Reason: "it is a symbolic link to " + target + ", which does not exist"}
		}
		if err := checkSidecars(path, path); err != nil {
			return header{}, err
		}
		return create(path)
	case errors.Is(err, fs.ErrPermission):
		return header{}, &OpenError{Path: path, Reason: "cannot reach the file: a directory on its path is not searchable by this user", Err: err}
	case err != nil:
		return header{}, &OpenError{Path: path, Reason: "cannot read the file: " + unwrapPathError(err), Err: err}
	}
	if kind := notRegular(st.Mode()); kind != "" {
		return header{}, &OpenError{Path: path, Reason: "it is " + kind + ", not a database file"}
	}
	if kfs := kernelFS(path); kfs != "" {
		return header{}, &OpenError{Path: path, Reason: "it is a file of the kernel's " + kfs + " file system, not a database file"}
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return header{}, &OpenError{Path: path, Reason: "cannot resolve the path: " + unwrapPathError(err), Err: err}
	}
	if err := checkSidecars(path, real); err != nil {
		return header{}, err
	}
	h, err := readHeader(path)
	h.real = real
	return h, err
}

// checkSidecars refuses a database whose log, index, journal or lease file
// is there but is not a regular file.
func checkSidecars(path, real string) error {
	for _, suffix := range sidecars {
		if st, err := os.Stat(real + suffix); err == nil && notRegular(st.Mode()) != "" {
			return &OpenError{Path: path, Reason: "the file beside it, " + real + suffix + ", is " + notRegular(st.Mode()) +
				", not a regular file"}
		}
	}
	return nil
}

// notRegular names the kind of file m is, or "" for a regular file.
func notRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "an irregular file"
	}
}

func create(path string) (header, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return header{}, &OpenError{Path: path, Reason: "cannot create its directory: " + unwrapPathError(err), Err: err}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it first: it is checked like any file.
		return prepareFile(path)
	}
	if err != nil {
		return header{}, &OpenError{Path: path, Reason: "cannot create the file: " + createReason(path, err), Err: err}
	}
	if err := f.Close(); err != nil {
		return header{}, &OpenError{Path: path, Reason: err.Error(), Err: err}
	}
	return prepareFile(path) // now there, it is checked like any file
}

func readHeader(path string) (header, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return header{}, &OpenError{Path: path, Reason: "cannot read the file: " + err.Error(), Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return header{}, &OpenError{Path: path, Reason: err.Error(), Err: err}
	}
	if kind := notRegular(st.Mode()); kind != "" {
		return header{}, &OpenError{Path: path, Reason: "it is " + kind + ", not a database file"}
	}
	h := header{size: st.Size()}
	if h.size == 0 {
		return h, nil
	}
	b := make([]byte, headerLen)
	if _, err := io.ReadFull(f, b); err != nil || !bytes.Equal(b[:len(sqliteMagic)], sqliteMagic) {
		return h, &OpenError{Path: path, Reason: "not a followup database (the file is not SQLite); it was left untouched"}
	}
	h.wal = b[18] == 2 && b[19] == 2
	h.appID = binary.BigEndian.Uint32(b[68:72])
	return h, nil
}

// createReason says why a missing file could not be created in words: its
// directory not writable by this user, or on a read-only file system.
func createReason(path string, err error) string {
	switch {
	case errors.Is(err, unix.EROFS):
		return "its directory " + filepath.Dir(path) + " is on a read-only file system"
	case errors.Is(err, fs.ErrPermission):
		return "its directory " + filepath.Dir(path) + " is not writable by this user"
	}
	return unwrapPathError(err)
}

// kernelFS names the kernel's file system path lies on (/proc, /sys), or
// "": its files look regular but are not files SQLite can keep.
func kernelFS(path string) string {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return ""
	}
	switch st.Type {
	case unix.PROC_SUPER_MAGIC:
		return "/proc"
	case unix.SYSFS_MAGIC:
		return "/sys"
	case unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC:
		return "cgroup"
	}
	return ""
}

func unwrapPathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// nonEmptyFile reports whether path is a regular file with something in it.
func nonEmptyFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Size() > 0
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
