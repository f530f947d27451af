package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"followup/bench/dataset"
	"followup/store"
)

// qs runs the benchmarks' queries.
var qs = store.Queries{}

// listQueries are the store's reads whose cost grows with the database,
// with arguments; each must find its rows through an index.
var listQueries = map[string]string{
	"requests by state":    `SELECT id FROM requests WHERE 1=1 AND state = 'pending' ORDER BY seq`,
	"requests by chat":     `SELECT id FROM requests WHERE 1=1 AND chat_id = 'c' ORDER BY seq`,
	"requests by run":      `SELECT id FROM requests WHERE 1=1 AND run_id = 'r' ORDER BY seq`,
	"chat pending":         `SELECT id FROM requests WHERE 1=1 AND chat_id = 'c' AND state = 'pending' ORDER BY seq`,
	"requests+revisions":   `SELECT r.id, v.definition FROM requests r JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision WHERE 1=1 AND r.state = 'pending' ORDER BY r.seq`,
	"due requests":         `SELECT id FROM requests WHERE state = 'pending' AND expires_at IS NOT NULL AND expires_at <= 5 ORDER BY seq`,
	"transcript page":      `SELECT id FROM messages WHERE chat_id = 'c' AND visible = 1 AND id < 9 ORDER BY id DESC LIMIT 200`,
	"transcript after":     `SELECT id FROM messages WHERE chat_id = 'c' AND visible = 1 AND id > 9 ORDER BY id`,
	"run history":          `SELECT id FROM messages WHERE run_id = 'r' AND for_model = 1 ORDER BY id`,
	"chat messages":        `SELECT id FROM messages WHERE chat_id = 'c' ORDER BY id`,
	"message for delivery": `SELECT COUNT(*) FROM messages WHERE delivery_id = 1`,
	"chats":                `SELECT id FROM chats ORDER BY updated_at DESC, id LIMIT 200`,
	"latest run":           `SELECT id FROM runs WHERE chat_id = 'c' ORDER BY seq DESC LIMIT 1`,
	"runs in state":        `SELECT id FROM runs WHERE state = 'running' ORDER BY seq`,
	"resumable runs":       store.ResumableRunsQuery,
	"run deliveries":       `SELECT id FROM deliveries WHERE run_id = 'r' AND state = 'pending' ORDER BY id`,
	"request deliveries":   `SELECT id FROM deliveries WHERE request_id IN ('a', 'b') ORDER BY id`,
	"chat deliveries":      `SELECT id FROM deliveries WHERE request_id IN (SELECT id FROM requests WHERE chat_id = 'c') ORDER BY id`,
	"pending proposals":    `SELECT id FROM proposals WHERE request_id IN ('a', 'b') AND state = 'pending' ORDER BY created_at, id`,
	"answers":              `SELECT request_id FROM answers WHERE request_id IN ('a', 'b')`,
	"receipts of a chat":   `SELECT command_id FROM receipts WHERE chat_id = 'c'`,
}

// TestListQueriesUseIndexes checks with EXPLAIN QUERY PLAN that no list
// query reads a whole table.
func TestListQueriesUseIndexes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "plan.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for name, q := range listQueries {
		plan := store.QueryPlan(t, db, q)
		for _, line := range plan {
			full := strings.HasPrefix(line, "SCAN ") && !strings.Contains(line, " INDEX ")
			unbounded := strings.HasPrefix(line, "SCAN ") && !strings.Contains(q, "LIMIT")
			if full || unbounded {
				t.Errorf("%s reads a whole table: %s", name, strings.Join(plan, " / "))
			}
		}
	}
}

var (
	benchOnce  sync.Once
	benchStore *store.Store
	benchSum   dataset.Summary
	benchErr   error
)

func largeStore(b *testing.B) (*store.Store, dataset.Summary) {
	b.Helper()
	benchOnce.Do(func() {
		var dir, path string
		dir, benchErr = os.MkdirTemp("", "followup-store-bench")
		if benchErr == nil {
			path, benchSum, benchErr = dataset.Copy(dir, dataset.Default())
		}
		if benchErr == nil {
			benchStore, benchErr = store.Open(context.Background(), path)
		}
		if benchErr == nil {
			benchErr = fillItems(path)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchStore, benchSum
}

// fillItems stands in for chat.Open's fill of the pending items (which
// needs chat/'s views): an item per pending request built in SQL, of about
// the size and shape of the real ones.
func fillItems(path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`INSERT OR IGNORE INTO pending_items (seq, request_id, chat_id, item)
			SELECT r.seq, r.id, r.chat_id, json_object('id', r.id, 'digest', r.digest, 'chatId', r.chat_id,
				'runId', r.run_id, 'requestKey', r.request_key, 'state', r.state, 'revision', r.revision,
				'title', r.title, 'reason', r.reason, 'fields', json_extract(v.definition, '$.fields'),
				'prefill', json(COALESCE(v.prefill, '{}')), 'supplied', json(COALESCE(v.supplied, '{}')),
				'createdAt', r.created_at)
			FROM requests r JOIN revisions v ON v.request_id = r.id AND v.revision = r.revision
			WHERE r.state = 'pending'`)
	return err
}

// BenchmarkPendingItemJSON reads the stored pending list of every active
// chat: the store's part of `followup pending --json`.
func BenchmarkPendingItemJSON(b *testing.B) {
	st, sum := largeStore(b)
	ctx := context.Background()
	for b.Loop() {
		items, err := qs.PendingItemJSON(ctx, st.Reader(), "")
		if err != nil {
			b.Fatal(err)
		}
		if len(items) != sum.States["pending"] {
			b.Fatalf("%d items, want %d", len(items), sum.States["pending"])
		}
	}
}

// BenchmarkDueRequests is the expiry check every screen load and CLI
// command makes, at 10,000 requests.
func BenchmarkDueRequests(b *testing.B) {
	st, _ := largeStore(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := qs.DueRequests(ctx, st.Reader(), store.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPendingWithRevisions reads every pending request with its
// current revision in one pass.
func BenchmarkPendingWithRevisions(b *testing.B) {
	st, _ := largeStore(b)
	ctx := context.Background()
	for b.Loop() {
		if _, _, err := qs.ListRequestsWithRevisions(ctx, st.Reader(), store.RequestFilter{State: store.ReqPending}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTranscriptPage reads the newest 200 messages of the 2,000-message chat.
func BenchmarkTranscriptPage(b *testing.B) {
	st, sum := largeStore(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := qs.Transcript(ctx, st.Reader(), sum.BigChatID, 0, 200); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResumableRuns finds runs to resume among every unfinished one.
func BenchmarkResumableRuns(b *testing.B) {
	st, _ := largeStore(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := qs.ResumableRuns(ctx, st.Reader()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDraftCommit is the store's part of a draft autosave: one
// durable BEGIN IMMEDIATE transaction that reads the request and upserts
// the draft (synchronous=FULL: the commit waits for the disk).
func BenchmarkDraftCommit(b *testing.B) {
	st, sum := largeStore(b)
	ctx := context.Background()
	vals := [2]string{`{"q00":"a"}`, `{"q00":"ab"}`}
	i := 0
	for b.Loop() {
		err := st.Write(ctx, func(tx store.Handle) error {
			r, err := qs.GetRequest(ctx, tx, sum.BigRequestID)
			if err != nil {
				return err
			}
			return qs.UpsertDraft(ctx, tx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: vals[i%2], Edited: true, UpdatedAt: store.Now()})
		})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}
