package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func nullStr(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestEveryConnectionHasThePragmas(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	check := func(tx Handle, pragma string, want any) {
		t.Helper()
		var got any
		if err := tx.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %v, want %v", pragma, got, want)
		}
	}
	for _, q := range []Handle{s.Reader(), s.w} {
		check(q, "foreign_keys", int64(1))
		check(q, "busy_timeout", int64(10000))
		check(q, "synchronous", int64(2)) // FULL
		check(q, "journal_mode", "wal")
	}
	check(s.Reader(), "mmap_size", int64(0)) // bounded by default (MapFile)
	mapped, err := Open(ctx, s.Path(), MapFile())
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	check(mapped.Reader(), "mmap_size", int64(mmapSize))
	check(mapped.w, "mmap_size", int64(0))
	v, err := s.SchemaVersion(ctx)
	if err != nil || v < 1 {
		t.Fatalf("schema version %d, %v", v, err)
	}
}

func TestReopenKeepsDataAndVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, func(tx Handle) error {
		return qs.InsertChat(ctx, tx, Chat{ID: "ch_1", Title: "t", State: ChatActive, CreatedAt: 1, UpdatedAt: 1})
	}); err != nil {
		t.Fatal(err)
	}
	v1, _ := s.SchemaVersion(ctx)
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v2, _ := s.SchemaVersion(ctx)
	if c, err := qs.GetChat(ctx, s.Reader(), "ch_1"); err != nil || c.Title != "t" || v1 != v2 {
		t.Fatalf("after reopen: %v %v, versions %d %d", c, err, v1, v2)
	}
}

func TestRefusesWhatIsNotADatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	content := []byte("hello, not sqlite at all")
	os.WriteFile(junk, content, 0o600)
	_, err := Open(context.Background(), junk)
	var oe *OpenError
	if !errors.As(err, &oe) || oe.Path != junk {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(junk); !bytes.Equal(got, content) {
		t.Fatal("file changed")
	}
	if _, err := Open(context.Background(), dir); !errors.As(err, &oe) {
		t.Fatalf("a directory: %v", err)
	}
}

func TestNewFilePermissions(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "b")
	s, err := Open(context.Background(), filepath.Join(dir, "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "p.db"): 0o600} {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: %v %v", p, st.Mode().Perm(), err)
		}
	}
}

func TestFailedWriteRollsBack(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Write(ctx, func(tx Handle) error {
		if err := qs.InsertChat(ctx, tx, Chat{ID: "ch_x", Title: "x", State: ChatActive}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, err := qs.GetChat(ctx, s.Reader(), "ch_x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("row survived a rollback: %v", err)
	}
}

func TestDeletingAChatCascades(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	err := s.Write(ctx, func(tx Handle) error {
		if err := qs.InsertChat(ctx, tx, Chat{ID: "ch_d", Title: "d", State: ChatActive}); err != nil {
			return err
		}
		run, err := qs.InsertRun(ctx, tx, Run{ID: "run_d", ChatID: "ch_d", State: RunRunning})
		if err != nil {
			return err
		}
		_, err = qs.InsertMessage(ctx, tx, Message{ChatID: "ch_d", RunID: nullStr(run.ID), Role: RoleUser, Content: "hi"})
		if err != nil {
			return err
		}
		return qs.DeleteChat(ctx, tx, "ch_d")
	})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	s.Reader().QueryRowContext(ctx, "SELECT (SELECT COUNT(*) FROM runs) + (SELECT COUNT(*) FROM messages)").Scan(&n)
	if n != 0 {
		t.Fatalf("%d rows left", n)
	}
}

func TestRefusesAnotherProgramsDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE foo (x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(path)
	_, err = Open(context.Background(), path)
	var oe *OpenError
	if !errors.As(err, &oe) {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("the other program's database was changed")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("files were created beside it: %v", entries)
	}
}
