package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A lock another process holds while Open claims a new file makes Open
// fail busy: the OpenError keeps SQLite's SQLITE_BUSY as its cause, so the
// caller can say "busy, try again" rather than "unusable"; once the lock
// is gone the file opens.
func TestOpenErrorKeepsABusyCause(t *testing.T) {
	// Not parallel: every connection opened meanwhile waits busyTimeout.
	old := busyTimeout
	busyTimeout = 100 * time.Millisecond
	defer func() { busyTimeout = old }()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "f.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	holder, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	lock, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path)
	var oe *OpenError
	if !errors.As(err, &oe) || !IsBusy(err) || oe.Path != path {
		t.Fatalf("Open while another holds the lock = %v (busy %v)", err, IsBusy(err))
	}
	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	lock.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after the lock went = %v", err)
	}
	s.Close()
}
