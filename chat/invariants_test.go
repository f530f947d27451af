package chat_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"followup/chat"
	"followup/store"
)

// world is a shared database, a host in this process that only reads it,
// and the command line that drives it from child processes.
type world struct {
	t   *testing.T
	svc *chat.Service
	sql *sql.DB
	cli *fuCLI
}

func newWorld(t *testing.T, env ...string) *world {
	t.Helper()
	path := filepath.Join(t.TempDir(), "followup.db")
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	checkItemsAtEnd(t, svc)
	return &world{t: t, svc: svc, sql: openSQL(t, path), cli: &fuCLI{t: t, db: path, env: env}}
}

// checkItemsAtEnd checks, when the test ends and while svc is still open,
// that the stored pending list matches the requests.
func checkItemsAtEnd(t *testing.T, svc *chat.Service) {
	t.Cleanup(func() {
		if err := chat.CheckPendingItems(svc); err != nil {
			t.Errorf("at the end of the test: %v", err)
		}
	})
}

// openSQL opens the database for raw reads the typed queries do not offer.
func openSQL(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// on is the same world reporting to another test (a parallel subtest).
func (w *world) on(t *testing.T) *world {
	c := *w
	c.t = t
	cl := *w.cli
	cl.t = t
	c.cli = &cl
	return &c
}

func (w *world) count(query string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.sql.QueryRow(query, args...).Scan(&n); err != nil {
		w.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// runOfCommand finds the run a send command created, from its receipt;
// "" when the command never committed.
func (w *world) runOfCommand(commandID string) string {
	w.t.Helper()
	var res string
	err := w.sql.QueryRow(`SELECT result FROM receipts WHERE command_id = ?`, commandID).Scan(&res)
	if err == sql.ErrNoRows {
		return ""
	} else if err != nil {
		w.t.Fatal(err)
	}
	var sent chat.Sent
	if err := json.Unmarshal([]byte(res), &sent); err != nil {
		w.t.Fatal(err)
	}
	return sent.RunID
}

// onlyRequest is the run's one request ("" when it has none yet).
func (w *world) onlyRequest(runID string) string {
	w.t.Helper()
	var ids []string
	rows, err := w.sql.Query(`SELECT id FROM requests WHERE run_id = ? ORDER BY seq`, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		rows.Scan(&id)
		ids = append(ids, id)
	}
	if len(ids) > 1 {
		w.t.Fatalf("run %s asked %d times: %v", runID, len(ids), ids)
	}
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// checkRecoverable asserts docs/behaviour.md right after a process died: the
// lease is free, no delivery reached the history twice and a delivered one
// reached it once, and the run is waiting for the user, resumable
// (Orphaned lists it) or ended.
func (w *world) checkRecoverable(runID, when string) {
	w.t.Helper()
	ctx := context.Background()
	if w.svc.Busy(runID) {
		w.t.Fatalf("%s: the run's lease is still held after its driver died", when)
	}
	rows, err := w.sql.Query(`SELECT d.id, d.state, (SELECT COUNT(*) FROM messages m WHERE m.delivery_id = d.id)
		FROM deliveries d WHERE d.run_id = ?`, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	open := 0
	for rows.Next() {
		var id int64
		var state string
		var n int
		rows.Scan(&id, &state, &n)
		switch {
		case n > 1:
			w.t.Errorf("%s: delivery %d reached the history %d times", when, id, n)
		case state == store.DeliveryDelivered && n != 1:
			w.t.Errorf("%s: delivery %d is delivered but has %d history messages", when, id, n)
		case state == store.DeliveryPending || state == store.DeliveryUnknown:
			open++
		}
	}
	rows.Close()
	run, err := w.svc.GetRun(ctx, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	if run.State.Final() {
		return
	}
	pending := w.count(`SELECT COUNT(*) FROM requests WHERE run_id = ? AND state = 'pending'`, runID)
	orphans, err := w.svc.Orphaned(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	listed := false
	for _, o := range orphans {
		listed = listed || o.ID == runID
	}
	waiting := run.State == store.RunWaitingInput && open == 0 && pending > 0
	switch {
	case waiting && listed:
		w.t.Errorf("%s: a run waiting for the user is offered for resume", when)
	case !waiting && !listed:
		w.t.Errorf("%s: run is %s with %d open deliveries and %d pending requests, and Orphaned does not list it", when, run.State, open, pending)
	}
}

// checkHistory asserts the run's model history has the given roles, in
// order: nothing lost, nothing delivered or recorded twice.
func (w *world) checkHistory(runID string, roles ...string) {
	w.t.Helper()
	rows, err := w.sql.Query(`SELECT role FROM messages WHERE run_id = ? AND for_model = 1 ORDER BY id`, runID)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var r string
		rows.Scan(&r)
		got = append(got, r)
	}
	if strings.Join(got, ",") != strings.Join(roles, ",") {
		w.t.Errorf("run %s history = %v, want %v", runID, got, roles)
	}
}
