package store

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openWithin opens path and fails the test if the open has not returned
// after a few seconds: an open that blocks is the defect these tests catch.
func openWithin(t *testing.T, path string) (*Store, error) {
	t.Helper()
	type res struct {
		s   *Store
		err error
	}
	done := make(chan res, 1)
	go func() {
		s, err := Open(context.Background(), path)
		done <- res{s, err}
	}()
	select {
	case r := <-done:
		if r.s != nil {
			t.Cleanup(func() { r.s.Close() })
		}
		return r.s, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Open(%s) blocked", path)
		return nil, nil
	}
}

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.db")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	sub := filepath.Join(dir, "sub.db")
	os.Mkdir(sub, 0o700)
	fifoLink := filepath.Join(dir, "tofifo.db")
	os.Symlink(fifo, fifoLink)
	dangling := filepath.Join(dir, "dangling.db")
	os.Symlink(filepath.Join(dir, "nowhere.db"), dangling)
	beside := filepath.Join(dir, "beside.db")
	if err := syscall.Mkfifo(beside+"-wal", 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:        "it is a FIFO (named pipe), not a database file",
		fifoLink:    "it is a FIFO (named pipe), not a database file",
		sock:        "it is a socket, not a database file",
		sub:         "it is a directory, not a database file",
		"/dev/null": "it is a character device, not a database file",
		dangling:    "it is a symbolic link to " + filepath.Join(dir, "nowhere.db") + ", which does not exist",
		beside:      "the file beside it, " + beside + "-wal, is a FIFO (named pipe), not a regular file",
		"":          "no database path given",
	} {
		_, err := openWithin(t, path)
		var oe *OpenError
		if !errors.As(err, &oe) || oe.Path != path || oe.Reason != want {
			t.Errorf("Open(%q) = %v, want %q", path, err, want)
		}
	}
	if _, err := os.Stat(beside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a database was created beside a FIFO: %v", err)
	}
}

func TestOpensThroughASymlinkToARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	s, err := Open(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	link := filepath.Join(dir, "link.db")
	os.Symlink(real, link)
	if _, err := openWithin(t, link); err != nil {
		t.Fatal(err)
	}
}

func TestLeaseFileThatIsNotRegularIsAnError(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	os.Remove(s.Path() + "-lease")
	if err := syscall.Mkfifo(s.Path()+"-lease", 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.AcquireLease(1)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is a FIFO (named pipe), not a regular file") {
			t.Fatalf("AcquireLease on a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("AcquireLease blocked on a FIFO")
	}
}

// Processes reaching one database through different symlinks share its
// lease, as SQLite shares its log: one driver per run whatever the name.
func TestSymlinksToOneDatabaseShareItsLease(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	real := filepath.Join(dir, "real.db")
	a, err := Open(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	link := filepath.Join(dir, "link.db")
	os.Symlink(real, link)
	b, err := openWithin(t, link)
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.AcquireLease(7)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if _, err := b.AcquireLease(7); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("through the symlink the held lease was taken: %v", err)
	}
	if held, err := b.LeaseHeld(7); err != nil || !held {
		t.Fatalf("through the symlink the lease looks free: %v %v", held, err)
	}
	if _, err := os.Lstat(link + "-lease"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a second lease file was made beside the symlink: %v", err)
	}
}

// A database this process cannot write still tells whether a run is
// driven: testing the lock needs no write access.
func TestLeaseHeldOnAReadOnlyStore(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	l, err := s.AcquireLease(3)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Open(context.Background(), s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ro.readOnly = "for this test"
	if held, err := ro.LeaseHeld(3); err != nil || !held {
		t.Fatalf("held lease: %v %v", held, err)
	}
	if held, err := ro.LeaseHeld(4); err != nil || held {
		t.Fatalf("free lease: %v %v", held, err)
	}
	if _, err := ro.AcquireLease(4); !errors.As(err, new(*ReadOnlyError)) {
		t.Fatalf("AcquireLease on a read-only store: %v", err)
	}
	l.Release()
}
