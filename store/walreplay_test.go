package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ourDatabase creates a followup database at path holding one chat and
// closes it: the log is checkpointed into the file and removed.
func ourDatabase(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, func(tx Handle) error {
		return qs.InsertChat(ctx, tx, Chat{ID: "ch_1", Title: "t", State: ChatActive, CreatedAt: 1, UpdatedAt: 1})
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if exists(path + "-wal") {
		t.Fatal("the log outlived a clean close")
	}
}

// foreignLog returns the log (-wal) of another program's running database,
// its tables only in the log yet.
func foreignLog(t *testing.T, dir string) []byte {
	t.Helper()
	path := filepath.Join(dir, "theirs.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0",
		"CREATE TABLE secret (x)", "INSERT INTO secret VALUES ('left behind')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	wal, err := os.ReadFile(path + "-wal")
	if err != nil || len(wal) == 0 {
		t.Fatalf("no log: %d bytes, %v", len(wal), err)
	}
	return wal
}

// A log beside a followup database is replayed by SQLite over the file: when
// it is another database's, what SQLite reads is not followup's, whatever
// the file's own header says. It is refused, and neither the file nor the
// log is changed (no migration over the other program's tables, no
// checkpoint of the log into the file).
func TestRefusesAnotherDatabasesLogBesideOurs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "ours.db")
	ourDatabase(t, path)
	wal := foreignLog(t, dir)
	if err := os.WriteFile(path+"-wal", wal, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	for range 2 {
		_, err := openWithin(t, path)
		var oe *OpenError
		var fe *ForeignError
		if !errors.As(err, &oe) || !errors.As(err, &fe) || !strings.Contains(err.Error(), "not a followup database") ||
			!strings.Contains(err.Error(), path+"-wal") || !strings.Contains(err.Error(), `"secret"`) ||
			!strings.Contains(err.Error(), "left untouched") {
			t.Fatalf("err = %v", err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Fatal("the database file changed")
		}
		if w, _ := os.ReadFile(path + "-wal"); !bytes.Equal(wal, w) {
			t.Fatal("the log changed")
		}
	}
}

// A followup database whose tables are gone is refused as damaged, never
// migrated again into an empty database that would hide what is left.
func TestRefusesOurDatabaseThatLostItsTables(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"schema_migrations dropped": {"DROP TABLE schema_migrations"},
		"its rows deleted":          {"DELETE FROM schema_migrations"},
	}
	for name, stmts := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "ours.db")
			ourDatabase(t, path)
			sqliteFile(t, path, stmts...)
			before, _ := os.ReadFile(path)
			_, err := openWithin(t, path)
			var de *DamagedError
			if !errors.As(err, &de) || !strings.Contains(err.Error(), "left untouched") {
				t.Fatalf("err = %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Fatal("the database file changed")
			}
		})
	}
}
