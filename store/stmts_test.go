package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// cacheOf returns the statement cache of one reader connection, held for
// the test.
func cacheOf(t *testing.T, s *Store) (*sql.Conn, func() (prepared, kept int)) {
	t.Helper()
	c, err := s.r.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, func() (prepared, kept int) {
		if err := c.Raw(func(dc any) error {
			cc, ok := dc.(*cachingConn)
			if !ok {
				return fmt.Errorf("the connection is a %T, not one that keeps its statements", dc)
			}
			prepared, kept = cc.prepared, cc.lru.Len()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return prepared, kept
	}
}

func addChat(t *testing.T, s *Store, id string) {
	t.Helper()
	ctx := context.Background()
	if err := s.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO chats (id, title, created_at, updated_at) VALUES (?, 't', 1, 1)", id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestConnectionsKeepTheirStatements: a query run again on a connection is
// not prepared again, whatever its arguments; the same text run while its
// rows are open runs too; a script is not kept.
func TestConnectionsKeepTheirStatements(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	addChat(t, s, "a")
	addChat(t, s, "b")
	c, stats := cacheOf(t, s)
	const q = "SELECT count(*) FROM chats WHERE id >= ?"
	p0, _ := stats()
	for i, from := range []string{"a", "b", "c", "a"} {
		var n int
		if err := c.QueryRowContext(ctx, q, from).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if want := []int{2, 1, 0, 2}[i]; n != want {
			t.Fatalf("count from %q = %d, want %d", from, n, want)
		}
	}
	if p, _ := stats(); p != p0+1 {
		t.Fatalf("the query was prepared %d times for 4 runs, want once", p-p0)
	}

	// Its rows open, the same text runs beside it.
	rows, err := c.QueryContext(ctx, "SELECT id FROM chats ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var outer, inner []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		outer = append(outer, id)
		// The same text on the same connection, as a transaction's
		// Handle may run it: not the kept statement, whose rows are open.
		if len(outer) == 1 {
			var first string
			if err := c.QueryRowContext(ctx, "SELECT id FROM chats ORDER BY id").Scan(&first); err != nil || first != "a" {
				t.Fatalf("the same query beside its open rows read %q (%v), want a", first, err)
			}
		}
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRowContext(ctx, "SELECT id FROM chats ORDER BY id DESC").Scan(new(string)); err != nil {
		t.Fatal(err)
	}
	rows, err = c.QueryContext(ctx, "SELECT id FROM chats ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		inner = append(inner, id)
	}
	rows.Close()
	if fmt.Sprint(outer) != "[a b]" || fmt.Sprint(inner) != "[a b]" {
		t.Fatalf("rows %v and %v, want [a b] twice", outer, inner)
	}

	// A script runs whole, and is not kept.
	p1, k1 := stats()
	if _, err := c.ExecContext(ctx, "CREATE TEMP TABLE x (v); INSERT INTO x VALUES (1); INSERT INTO x VALUES (2);"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRowContext(ctx, "SELECT count(*) FROM x").Scan(&n); err != nil || n != 2 {
		t.Fatalf("the script left %d rows (%v), want 2", n, err)
	}
	if p, k := stats(); p != p1+1 || k != k1+1 {
		t.Fatalf("after a script and a query: %d prepared, %d kept; want the query's alone", p-p1, k-k1)
	}
}

// TestKeptStatementsSeeOtherCommits: a kept statement holds no snapshot
// between runs — not after its rows were read whole nor when they were
// closed early — and is prepared anew by SQLite after another connection
// changed the schema.
func TestKeptStatementsSeeOtherCommits(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	other, err := Open(ctx, s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	addChat(t, s, "a")
	addChat(t, s, "b")
	c, stats := cacheOf(t, s)
	count := func() int {
		var n int
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM chats").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 2 {
		t.Fatalf("%d chats, want 2", n)
	}
	// Rows closed after the first of two.
	rows, err := c.QueryContext(ctx, "SELECT id FROM chats")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	rows.Close()
	addChat(t, other, "c")
	if n := count(); n != 3 {
		t.Fatalf("%d chats after another connection's commit, want 3", n)
	}
	rows, err = c.QueryContext(ctx, "SELECT id FROM chats")
	if err != nil {
		t.Fatal(err)
	}
	var ids int
	for rows.Next() {
		ids++
	}
	rows.Close()
	if ids != 3 {
		t.Fatalf("the kept query read %d chats, want 3", ids)
	}
	if err := other.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, "CREATE TABLE later (v)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	addChat(t, other, "d")
	if n := count(); n != 4 {
		t.Fatalf("%d chats after a schema change elsewhere, want 4", n)
	}
	if p, _ := stats(); p != 2 {
		t.Fatalf("%d statements prepared, want the two queries once each", p)
	}
}

// TestStatementCacheIsBounded: past stmtCacheSize texts the least recently
// used statement goes; every query still answers.
func TestStatementCacheIsBounded(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	c, stats := cacheOf(t, s)
	for i := range stmtCacheSize + 10 {
		var n int
		if err := c.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&n); err != nil || n != i {
			t.Fatalf("SELECT %d answered %d (%v)", i, n, err)
		}
	}
	p, k := stats()
	if k != stmtCacheSize || p != stmtCacheSize+10 {
		t.Fatalf("%d kept of %d prepared, want %d of %d", k, p, stmtCacheSize, stmtCacheSize+10)
	}
	var n int
	if err := c.QueryRowContext(ctx, "SELECT 0").Scan(&n); err != nil || n != 0 {
		t.Fatalf("an evicted query answered %d (%v)", n, err)
	}
	if p2, _ := stats(); p2 != p+1 {
		t.Fatal("an evicted query was not prepared again")
	}
}
