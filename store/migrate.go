package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is a file of migrationFS; its SQL is read only when applied:
// most starts find the schema current.
type migration struct {
	version int
	name    string
}

func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		out = append(out, migration{v, e.Name()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// SchemaVersion is the number of the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}

// errForeign refuses a SQLite database that followup did not create.
var errForeign = fmt.Errorf("not a followup database (it holds another program's tables); it was left untouched")

func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	// Most starts find the schema current: a read answers that without a
	// durable write (and its fsync) on every command.
	var cur int
	err = s.r.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&cur)
	if last := ms[len(ms)-1].version; err == nil && cur == last {
		return nil
	}
	// The reader that looked may predate the WAL mode set below: readers
	// start afresh after the migration.
	defer func() {
		s.r.SetMaxIdleConns(0)
		s.r.SetMaxIdleConns(2)
	}()
	// A SQLite file of some other program is not ours to change.
	var tables, ours int
	if err := s.w.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(CASE WHEN name = 'schema_migrations' THEN 1 END)
		FROM sqlite_master WHERE type = 'table'`).Scan(&tables, &ours); err != nil {
		return err
	}
	if tables > 0 && ours == 0 {
		return errForeign
	}
	// WAL lets readers and the writer work at once; the mode persists in
	// the file, so every later connection has it too.
	if _, err := s.w.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return err
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		return err
	}
	return s.Write(ctx, func(tx Handle) error {
		var cur int
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&cur); err != nil {
			return err
		}
		if last := ms[len(ms)-1].version; cur > last {
			return fmt.Errorf("the database was written by a newer followup (schema %d, this build knows %d)", cur, last)
		}
		for _, m := range ms {
			if m.version <= cur {
				continue
			}
			sql, err := migrationFS.ReadFile("migrations/" + m.name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(sql)); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
				m.version, m.name, Now()); err != nil {
				return err
			}
		}
		return nil
	})
}
