package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
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

// migrate brings a file that is followup's, or may become so, up to date.
// own was decided by reading only; it is decided again under the write lock
// before the first write, and a file found foreign then is left untouched.
func (s *Store) migrate(ctx context.Context, own owner, ms []migration) error {
	// Most starts find the schema current: a read answers that without a
	// durable write (and its fsync) on every command.
	if own == ownerMarked {
		if current, err := isCurrent(ctx, s.r, ms); err == nil && current {
			return nil
		}
	}
	// The reader that looked may predate the WAL mode set below: readers
	// start afresh after the migration.
	defer func() {
		s.r.SetMaxIdleConns(0)
		s.r.SetMaxIdleConns(readerConns)
	}()
	// Whose the file is, is decided again under the write lock, on what
	// SQLite reads there, before the first write (the WAL switch included).
	if err := s.claim(ctx, ms); err != nil {
		return err
	}
	if err := s.switchToWAL(ctx); err != nil {
		return err
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`); err != nil {
		return err
	}
	applied := 0
	err := s.Write(ctx, func(tx Handle) error {
		done, err := recorded(ctx, tx, ms)
		if err != nil {
			return err
		}
		// Every migration not yet recorded is applied, in order, not only
		// those after the newest: numbers are reserved ahead, so a
		// database may have met 0009 before 0007 existed.
		for _, m := range ms {
			if done[m.version] {
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
			applied++
		}
		return nil
	})
	if err == nil && applied > 0 {
		// The mark of a database from before it (0007) reaches the file
		// itself now rather than at some later checkpoint, so the next
		// start knows the file from its header alone. A reader in the way
		// leaves it for the next checkpoint: nothing depends on it.
		s.w.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	}
	return err
}

// recorded returns the versions schema_migrations records. One this build
// does not know means a newer followup wrote the file.
func recorded(ctx context.Context, h Handle, ms []migration) (map[int]bool, error) {
	known := map[int]bool{}
	for _, m := range ms {
		known[m.version] = true
	}
	done := map[int]bool{}
	err := eachRow(ctx, h, func(sc rowScanner) error {
		var v int
		if err := sc.Scan(&v); err != nil {
			return err
		}
		if !known[v] {
			return fmt.Errorf("the database was written by a newer followup (schema %d, this build knows %d)",
				v, ms[len(ms)-1].version)
		}
		done[v] = true
		return nil
	}, "SELECT version FROM schema_migrations ORDER BY version")
	return done, err
}

// isCurrent reports whether every migration of this build is recorded.
func isCurrent(ctx context.Context, h Handle, ms []migration) (bool, error) {
	done, err := recorded(ctx, h, ms)
	return err == nil && len(done) == len(ms), err
}

// switchToWAL puts the database in WAL mode, which lets readers and the
// writer work at once; the mode persists in the file, so every later
// connection has it too. Processes creating one database together all come
// here: the switch upgrades a read lock to an exclusive one, and SQLite
// answers SQLITE_BUSY at once, without waiting, to all but one of several
// that try together (waiting could deadlock). They try again until one has
// switched it, within the busy timeout.
func (s *Store) switchToWAL(ctx context.Context) error {
	deadline := time.Now().Add(busyTimeout)
	for {
		var mode string
		err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
		if err == nil && mode == "wal" {
			return nil
		}
		if err == nil {
			err = s.w.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		}
		if err == nil || !IsBusy(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1+rand.IntN(10)) * time.Millisecond):
		}
	}
}

// claim checks again, under the write lock, whose the file is — a marked
// file's tables included (intact) — and makes a file with nothing in it
// followup's: it sets the mark in its first transaction — before the WAL
// switch, so the mark is in the file itself from the first commit on and
// never only in a log.
func (s *Store) claim(ctx context.Context, ms []migration) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	own, err := classify(ctx, tx, ms)
	if err != nil {
		return err
	}
	if own == ownerNone {
		if _, err := tx.ExecContext(ctx, "PRAGMA application_id = "+strconv.Itoa(ApplicationID)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// checkReadOnly opens a database this process cannot write: only a marked
// one whose schema this build knows as it is.
func (s *Store) checkReadOnly(ctx context.Context, own owner, ms []migration) error {
	if own == ownerNone {
		return fmt.Errorf("it is read-only (%s) and holds no followup database yet", s.readOnly)
	}
	current, err := isCurrent(ctx, s.r, ms)
	if err != nil {
		return err
	}
	if !current || own != ownerMarked {
		return fmt.Errorf("it is read-only (%s) and needs an upgrade to this followup's schema: open it once where it can be written",
			s.readOnly)
	}
	return nil
}
