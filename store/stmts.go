package store

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"

	"modernc.org/sqlite"
)

// Preparing a statement — parsing its SQL and planning it — costs more
// than running most of followup's queries (about 1.8 ms of a chat
// switch's CPU went to it). Each connection keeps the statements it ran,
// by query text, and runs them again without parsing: every query of
// every Handle, in a transaction or not, goes through it.

// stmtCacheSize bounds the statements a connection keeps. Queries with IN
// lists have one text per list length: the least recently used go first.
const stmtCacheSize = 128

// openCachedPool opens a pool whose connections keep their statements.
func openCachedPool(path, dsn string) (*sql.DB, error) {
	c, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(cachingConnector{c, path}), nil
}

// cachingConnector makes cachingConns on the file at path.
type cachingConnector struct {
	driver.Connector
	path string
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return newCachingConn(conn, c.path)
}

// sqliteConn is what database/sql uses of a SQLite connection.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cachingConn is a connection that keeps its prepared statements. A
// statement runs one query at a time: while its rows are open, the same
// text runs as a statement of its own, prepared for that query alone.
// SQLite's report of a damaged file, from a query or its rows, names the
// file (CorruptError), whichever handle ran it.
type cachingConn struct {
	sqliteConn
	path     string
	lru      *list.List               // of *cachedStmt, most recently used first
	by       map[string]*list.Element // by query text
	prepared int                      // statements prepared for the cache (tests)
}

type cachedStmt struct {
	query string
	stmt  driver.Stmt
	busy  bool // its rows are open
}

type stmtContext interface {
	driver.StmtExecContext
	driver.StmtQueryContext
}

func newCachingConn(c driver.Conn, path string) (driver.Conn, error) {
	sc, ok := c.(sqliteConn)
	if !ok {
		c.Close()
		return nil, errors.New("the SQLite driver's connections lack what database/sql needs")
	}
	return &cachingConn{sqliteConn: sc, path: path, lru: list.New(), by: map[string]*list.Element{}}, nil
}

// cacheable reports whether query is one statement: a script (migrations)
// is parsed anew each time it runs anyway.
func cacheable(query string) bool {
	q := strings.TrimRight(strings.TrimSpace(query), "; \t\n")
	return !strings.Contains(q, ";")
}

// cached returns query's statement, prepared when it is not kept yet, or
// nil when it runs as it is (a script, or its statement is busy).
func (c *cachingConn) cached(ctx context.Context, query string) (*cachedStmt, error) {
	if e, ok := c.by[query]; ok {
		cs := e.Value.(*cachedStmt)
		if cs.busy {
			return nil, nil
		}
		c.lru.MoveToFront(e)
		return cs, nil
	}
	if !cacheable(query) {
		return nil, nil
	}
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if _, ok := st.(stmtContext); !ok {
		st.Close()
		return nil, nil
	}
	c.prepared++
	cs := &cachedStmt{query: query, stmt: st}
	c.by[query] = c.lru.PushFront(cs)
	for c.lru.Len() > stmtCacheSize {
		old := c.lru.Back().Value.(*cachedStmt)
		if old.busy {
			break // its rows close first; the cache shrinks later
		}
		c.lru.Remove(c.lru.Back())
		delete(c.by, old.query)
		old.stmt.Close()
	}
	return cs, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.cached(ctx, query)
	if err != nil {
		return nil, asCorrupt(c.path, err)
	}
	var res driver.Result
	if cs == nil {
		res, err = c.sqliteConn.ExecContext(ctx, query, args)
	} else {
		res, err = cs.stmt.(stmtContext).ExecContext(ctx, args)
	}
	return res, asCorrupt(c.path, err)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.cached(ctx, query)
	if err != nil {
		return nil, asCorrupt(c.path, err)
	}
	if cs == nil {
		rows, err := c.sqliteConn.QueryContext(ctx, query, args)
		if err != nil {
			return nil, asCorrupt(c.path, err)
		}
		return &cachedRows{Rows: rows, path: c.path}, nil
	}
	rows, err := cs.stmt.(stmtContext).QueryContext(ctx, args)
	if err != nil {
		return nil, asCorrupt(c.path, err)
	}
	cs.busy = true
	return &cachedRows{Rows: rows, stmt: cs, path: c.path}, nil
}

// Close finalizes the kept statements before the connection closes.
func (c *cachingConn) Close() error {
	var errs []error
	for e := c.lru.Front(); e != nil; e = e.Next() {
		errs = append(errs, e.Value.(*cachedStmt).stmt.Close())
	}
	c.lru.Init()
	clear(c.by)
	return errors.Join(append(errs, c.sqliteConn.Close())...)
}

// cachedRows frees its statement (nil: one prepared for this query alone)
// for the next query when it closes, and names the file in a damaged
// file's report met while reading.
type cachedRows struct {
	driver.Rows
	stmt *cachedStmt
	path string
}

func (r *cachedRows) Next(dest []driver.Value) error {
	return asCorrupt(r.path, r.Rows.Next(dest))
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	if r.stmt != nil {
		r.stmt.busy = false
	}
	return err
}
