package store

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Paths that can never be a database file are refused in words, and
// nothing is created for them.
func TestRefusesPathsThatCannotBeADatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for path, want := range map[string]string{
		filepath.Join(dir, "nod") + "/":    "names a directory",
		filepath.Join(dir, "a", "b") + "/": "names a directory",
		"/proc/self/status":                "kernel's /proc file system",
	} {
		_, err := openWithin(t, path)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "(14)") {
			t.Errorf("%s: %v", path, err)
		}
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Fatalf("refused, yet created: %v", got)
	}
}

// A file that cannot be created says why in words: its directory.
func TestCreateReason(t *testing.T) {
	t.Parallel()
	for err, want := range map[error]string{
		&fs.PathError{Op: "open", Path: "/r/x.db", Err: unix.EACCES}: "its directory /r is not writable by this user",
		&fs.PathError{Op: "open", Path: "/r/x.db", Err: unix.EROFS}:  "its directory /r is on a read-only file system",
		&fs.PathError{Op: "open", Path: "/r/x.db", Err: unix.ENOSPC}: "no space left on device",
	} {
		if got := createReason("/r/x.db", err); got != want {
			t.Errorf("%v: %q, want %q", err, got, want)
		}
	}
}
