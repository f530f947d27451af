package cli_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A command that waits for the database longer than the busy timeout (a
// process holds the write lock) ends with DATABASE_BUSY and a message that
// says so, in JSON and in text, and records nothing.
func TestBusyDatabase(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "busy.db")
	if r := runCLI(t, db, "chats"); r.code != 0 {
		t.Fatalf("creating the database: %d %s", r.code, r.stderr)
	}
	holder, err := sql.Open("sqlite", "file:"+db+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var js, text result
	var wg sync.WaitGroup
	wg.Go(func() { js = runCLI(t, db, "ask", "Check deployment", "--json") })
	wg.Go(func() { text = runCLI(t, db, "ask", "Plan a trip") })
	wg.Wait()
	tx.Rollback()
	e, _ := decode(t, js)["error"].(map[string]any)
	if js.code != 1 || e["code"] != "DATABASE_BUSY" || !strings.Contains(e["message"].(string), "another process held the database for 10 s") {
		t.Errorf("--json: exit %d, %s", js.code, js.stdout)
	}
	if text.code != 1 || !strings.HasPrefix(text.stderr, "followup: DATABASE_BUSY: another process held the database") || strings.Count(text.stderr, "\n") != 1 {
		t.Errorf("text: exit %d, %q", text.code, text.stderr)
	}
	if cs := decode(t, runCLI(t, db, "chats", "--json"))["chats"].([]any); len(cs) != 0 {
		t.Errorf("a refused ask recorded %v", cs)
	}
}
