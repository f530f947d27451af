package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sqliteFile creates a database at path the way another program would
// (rollback journal, modernc's defaults) and runs stmts in it.
func sqliteFile(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func appID(t *testing.T, path string) uint32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < headerLen {
		t.Fatalf("%s: %d bytes, %v", path, len(b), err)
	}
	return binary.BigEndian.Uint32(b[68:72])
}

func TestRefusesAnotherProgramsSQLiteFile(t *testing.T) {
	t.Parallel()
	const sm = "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
	cases := map[string][]string{
		"golang-migrate, new version": {"CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)",
			"INSERT INTO schema_migrations VALUES (20200101120000, 0)"},
		"golang-migrate, small version": {"CREATE TABLE schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)",
			"INSERT INTO schema_migrations VALUES (1, 0)", "CREATE TABLE users (id INTEGER)"},
		"rails": {"CREATE TABLE schema_migrations (version varchar NOT NULL PRIMARY KEY)", "INSERT INTO schema_migrations VALUES ('1')",
			"CREATE TABLE ar_internal_metadata (key varchar PRIMARY KEY, value varchar)"},
		"same columns, empty":              {sm},
		"same columns, another's names":    {sm, "INSERT INTO schema_migrations VALUES (1, '0001_create_users.sql', 0)"},
		"same columns, none of our tables": {sm, "INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 0)"},
		"our names after another's": {sm, "INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 0)",
			"INSERT INTO schema_migrations VALUES (99, '0099_theirs.sql', 0)",
			"CREATE TABLE chats (id)", "CREATE TABLE runs (id)", "CREATE TABLE messages (id)", "CREATE TABLE requests (id)"},
		"other tables":          {"CREATE TABLE foo (x)", "INSERT INTO foo VALUES (1)"},
		"only an index's table": {"CREATE TABLE t (x)", "CREATE INDEX t_x ON t (x)", "DROP TABLE t", "CREATE VIEW v AS SELECT 1"},
		"another mark":          {"PRAGMA application_id = 42"},
		"a user_version":        {"PRAGMA user_version = 7"},
	}
	for name, stmts := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "other.db")
			sqliteFile(t, path, stmts...)
			before, _ := os.ReadFile(path)
			if before[18] != 1 || before[19] != 1 {
				t.Fatalf("the fixture is not a rollback-journal file: %d/%d", before[18], before[19])
			}
			_, err := openWithin(t, path)
			var oe *OpenError
			if !errors.As(err, &oe) || !strings.Contains(oe.Reason, "not a followup database") || strings.Contains(oe.Reason, "\n") {
				t.Fatalf("err = %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Fatalf("the other program's file changed (bytes 18–19 now %d/%d)", after[18], after[19])
			}
			if got := dirNames(t, dir); len(got) != 1 {
				t.Fatalf("files appeared beside it: %v", got)
			}
		})
	}
}

func TestRefusesAnotherProgramsWALFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "wal.db")
	sqliteFile(t, path, "PRAGMA journal_mode=WAL", "CREATE TABLE foo (x)", "INSERT INTO foo VALUES (1)")
	before, _ := os.ReadFile(path)
	if _, err := openWithin(t, path); err == nil || !strings.Contains(err.Error(), `another program's tables, such as "foo"`) {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("the file changed")
	}
	if got := dirNames(t, dir); len(got) != 1 {
		t.Fatalf("files appeared beside it: %v", got)
	}

	// The other program is running: its tables are only in its log yet.
	live := filepath.Join(dir, "live.db")
	db, err := sql.Open("sqlite", live)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA journal_mode=WAL", "CREATE TABLE bar (x)", "INSERT INTO bar VALUES (1)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	main, _ := os.ReadFile(live)
	wal, _ := os.ReadFile(live + "-wal")
	if _, err := openWithin(t, live); err == nil || !strings.Contains(err.Error(), `such as "bar"`) {
		t.Fatalf("err = %v", err)
	}
	if m, _ := os.ReadFile(live); !bytes.Equal(main, m) {
		t.Fatal("the running program's file changed")
	}
	if w, _ := os.ReadFile(live + "-wal"); !bytes.Equal(wal, w) {
		t.Fatal("the running program's log changed")
	}
}

func TestAnEmptyFileBecomesOurs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.db")
	os.WriteFile(zero, nil, 0o600)
	empty := filepath.Join(dir, "empty.db")
	sqliteFile(t, empty, "VACUUM")
	for _, path := range []string{zero, empty, filepath.Join(dir, "new.db")} {
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s.Close()
		if got := appID(t, path); got != ApplicationID {
			t.Errorf("%s: application_id %#x", path, got)
		}
		if s, err = Open(context.Background(), path); err != nil {
			t.Fatalf("reopening %s: %v", path, err)
		}
		s.Close()
	}
}

// TestADatabaseFromBeforeTheMarkOpens opens a database that the release
// before the mark created (schema 0006: a deploy question and a travel one),
// as its users have it.
func TestADatabaseFromBeforeTheMarkOpens(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "premark.db")
	gz, err := os.Open("testdata/premark-0006.db.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, zr); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, buf.Bytes(), 0o600)
	if appID(t, path) != 0 {
		t.Fatal("the fixture already has a mark")
	}
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	chats, err := qs.ListChats(ctx, s.Reader(), ChatCursor{}, 10)
	if err != nil || len(chats) != 2 {
		t.Fatalf("chats %v, %v", chats, err)
	}
	v, _ := s.SchemaVersion(ctx)
	s.Close()
	if ms, _ := migrations(); v != ms[len(ms)-1].version {
		t.Fatalf("schema %d", v)
	}
	if got := appID(t, path); got != ApplicationID {
		t.Fatalf("application_id %#x after the upgrade", got)
	}
}

// A database that met a later migration before the mark existed (numbers
// are reserved ahead: 0009 may land before 0007) still gets the mark.
func TestAMigrationMissingBelowTheNewestIsApplied(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gap.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec("DELETE FROM schema_migrations WHERE version = 7; PRAGMA application_id = 0"); err != nil {
		t.Fatal(err)
	}
	s.w.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	s.Close()
	if appID(t, path) != 0 {
		t.Fatal("the mark is still there")
	}
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	var n int
	s.r.QueryRow("SELECT COUNT(*) FROM schema_migrations WHERE version = 7").Scan(&n)
	s.Close()
	if got := appID(t, path); got != ApplicationID || n != 1 {
		t.Fatalf("application_id %#x, 0007 recorded %d times", got, n)
	}
}
