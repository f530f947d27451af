package chat

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// A lock another connection holds past the busy timeout is DATABASE_BUSY,
// with a message that says what happened, wherever errors are shown.
func TestBusyDatabaseIsDatabaseBusy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "b.db")
	holder, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	// A second writer that does not wait: SQLITE_BUSY at once, as after
	// the busy timeout.
	other, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, busy := other.BeginTx(ctx, nil)
	if busy == nil {
		t.Fatal("the second writer got the lock")
	}
	e := AsError(withContext(busy))
	if e.Code != CodeDatabaseBusy || !strings.Contains(e.Message, "another process held the database for 10 s") {
		t.Fatalf("AsError(%v) = %v", busy, e)
	}
	if CodeOf(busy) != CodeDatabaseBusy {
		t.Fatalf("CodeOf = %s", CodeOf(busy))
	}
}

// withContext wraps err as callers up the stack do.
func withContext(err error) error { return &wrapped{err} }

type wrapped struct{ err error }

func (w *wrapped) Error() string { return "answering: " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }
