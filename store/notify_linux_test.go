package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// wrote waits up to d for a value on ch; it reports whether one came and
// whether ch was closed instead.
func wrote(ch <-chan struct{}, d time.Duration) (got, closed bool) {
	select {
	case _, ok := <-ch:
		return ok, !ok
	case <-time.After(d):
		return false, false
	}
}

// TestWrittenTellsOfAnotherConnectionsCommit: a commit through another
// Store on the same file is reported; reads are not, nor is a file beside
// the database that is not its own; the channel closes when ctx ends.
func TestWrittenTellsOfAnotherConnectionsCommit(t *testing.T) {
	s := openTemp(t)
	other, err := Open(context.Background(), s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := s.Written(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SchemaVersion(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(s.Path()), "unrelated.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := wrote(ch, 300*time.Millisecond); got {
		t.Fatal("a read or another file was reported as a write")
	}
	if err := other.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO chats (id, title, created_at, updated_at) VALUES ('c1', 't', 1, 1)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := wrote(ch, 10*time.Second); !got {
		t.Fatal("another connection's commit was not reported")
	}
	cancel()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the channel stayed open after ctx ended")
		}
	}
}

// TestWrittenEndsWhenTheDirectoryGoes: once the database's directory is
// renamed the watch sees nothing more, and says so by closing.
func TestWrittenEndsWhenTheDirectoryGoes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := Open(context.Background(), filepath.Join(dir, "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ch, err := s.Written(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+"-moved"); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the watch of a renamed directory did not end")
		}
	}
}
