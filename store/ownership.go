package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// ApplicationID is followup's mark: the SQLite header's application_id of
// every followup database, the ASCII of "FLUP" (0x464C5550). A SQLite file
// is followup's only when it carries it — or when it is a followup database
// from before the mark, which migration 0007 then marks.
const ApplicationID = 0x464C5550

// owner is what a SQLite file turned out to be.
type owner int

const (
	ownerNone    owner = iota // nothing in it yet: followup may make it its own
	ownerMarked               // carries followup's mark
	ownerPremark              // a followup database from before the mark
)

// ForeignError refuses a SQLite file that is not followup's. Nothing was
// written to it: not a pragma, not a journal mode.
type ForeignError struct{ Why string }

func (e *ForeignError) Error() string {
	return "not a followup database (" + e.Why + "); it was left untouched"
}

func foreignMark(appID uint32) error {
	return &ForeignError{fmt.Sprintf("its SQLite application_id is %#08x, another program's mark", appID)}
}

// premarkTables are tables every followup database has had since 0001.
var premarkTables = []string{"chats", "runs", "messages", "requests", "schema_migrations"}

// classify decides from the schema alone, reading only, whose file q is.
func classify(ctx context.Context, q Handle, ms []migration) (owner, error) {
	var appID, userVersion int64
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return 0, err
	}
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&userVersion); err != nil {
		return 0, err
	}
	switch {
	case uint32(appID) == ApplicationID:
		return ownerMarked, intact(ctx, q)
	case appID != 0:
		return 0, foreignMark(uint32(appID))
	}
	tables, objects, err := schema(ctx, q)
	if err != nil {
		return 0, err
	}
	if objects == 0 {
		if userVersion != 0 {
			return 0, &ForeignError{fmt.Sprintf("its SQLite user_version is %d, set by another program", userVersion)}
		}
		return ownerNone, nil
	}
	if tables["schema_migrations"] {
		if ok, err := followupMigrations(ctx, q, ms); err != nil {
			return 0, err
		} else if !ok {
			return 0, &ForeignError{"its schema_migrations table does not record followup's migrations (golang-migrate, Rails and others use that name)"}
		}
	}
	for _, t := range premarkTables {
		if !tables[t] {
			if other := someTable(tables); other != "" {
				return 0, &ForeignError{"it holds another program's tables, such as " + other}
			}
			return 0, &ForeignError{"its schema is not followup's"}
		}
	}
	return ownerPremark, nil
}

// classifyRead is classify in one read transaction of db: every query
// sees the same state of the file.
func classifyRead(ctx context.Context, db *sql.DB, ms []migration) (owner, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	return classify(ctx, tx, ms)
}

// DamagedError refuses a file that carries followup's mark but has lost
// what every followup database has: migrating it would create empty
// tables over whatever is left. Nothing was written to it.
type DamagedError struct{ Why string }

func (e *DamagedError) Error() string {
	return "the followup database is damaged (" + e.Why + "); it was left untouched"
}

// intact checks the schema of a file with followup's mark. Nothing in it
// (the mark is set alone first) or an empty schema_migrations alone (the
// table is created before the first migration) is a database being
// created; anything else has every table since 0001 and records its
// migrations.
func intact(ctx context.Context, q Handle) error {
	tables, objects, err := schema(ctx, q)
	if err != nil || objects == 0 {
		return err
	}
	if !tables["schema_migrations"] {
		return &DamagedError{"its table schema_migrations is gone"}
	}
	var n int
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
		return err
	}
	if n == 0 && objects == 1 {
		return nil
	}
	if n == 0 {
		return &DamagedError{"its table schema_migrations records no migration"}
	}
	for _, t := range premarkTables {
		if !tables[t] {
			return &DamagedError{"its table " + t + " is gone"}
		}
	}
	return nil
}

// schema reads the file's table names and how many objects it has.
func schema(ctx context.Context, q Handle) (map[string]bool, int, error) {
	tables := map[string]bool{}
	var objects int
	err := eachRow(ctx, q, func(sc rowScanner) error {
		var n string
		err := sc.Scan(&n)
		tables[n] = true
		return err
	}, "SELECT name FROM sqlite_master WHERE type = 'table' LIMIT 1000")
	if err == nil {
		err = q.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master").Scan(&objects)
	}
	return tables, objects, err
}

// someTable names one table not followup's, cut short (the name is another
// program's text), or "" when there is none.
func someTable(tables map[string]bool) string {
	ours := map[string]bool{}
	for _, t := range premarkTables {
		ours[t] = true
	}
	best := ""
	for t := range tables {
		if !ours[t] && !strings.HasPrefix(t, "sqlite_") && (best == "" || t < best) {
			best = t
		}
	}
	if best == "" {
		return ""
	}
	if r := []rune(best); len(r) > 40 {
		best = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q", best)
}

// followupMigrations reports whether schema_migrations has followup's shape
// and records only followup's own migrations, 0001 first: golang-migrate,
// Rails and others use a table of the same name with other contents.
func followupMigrations(ctx context.Context, q Handle, ms []migration) (bool, error) {
	cols, err := queryAll(ctx, q, func(sc rowScanner) (c string, err error) {
		err = sc.Scan(&c)
		return
	}, "SELECT name FROM pragma_table_info('schema_migrations') ORDER BY cid")
	if err != nil || strings.Join(cols, ",") != "version,name,applied_at" {
		return false, err
	}
	names := map[int64]string{}
	for _, m := range ms {
		names[int64(m.version)] = m.name
	}
	rows, err := q.QueryContext(ctx, "SELECT version, name FROM schema_migrations ORDER BY version LIMIT ?", len(ms)+1)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var v sql.NullInt64
		var name sql.NullString
		if err := rows.Scan(&v, &name); err != nil {
			return false, nil // not followup's types
		}
		if !v.Valid || !name.Valid || names[v.Int64] != name.String || (n == 0 && v.Int64 != 1) {
			return false, rows.Err()
		}
		n++
	}
	return n > 0 && n <= len(ms), rows.Err()
}
