package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"followup/forms"
	"followup/store"
)

// fxItem is the stored pending item of a request, decoded; ok is false
// when it has none.
func fxItem(t *testing.T, s *Service, requestID string) (map[string]any, bool) {
	t.Helper()
	ps, err := storedItems(context.Background(), s.reader())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.RequestID == requestID {
			var m map[string]any
			if err := json.Unmarshal([]byte(p.Item), &m); err != nil {
				t.Fatalf("item of %s is not JSON: %v", requestID, err)
			}
			return m, true
		}
	}
	return nil, false
}

// fxListed is the ids of the stored pending list (of every active chat
// when chatID is ""), in order.
func fxListed(t *testing.T, s *Service, chatID string) []string {
	t.Helper()
	l, err := s.PendingItems(context.Background(), chatID)
	if err != nil {
		t.Fatal(err)
	}
	items, err := l.Items()
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return ids
}

// TestPendingItemFollowsEveryChange takes a request through each way a
// request changes and checks its item after it: present and current while
// the request is pending, gone once it is not.
func TestPendingItemFollowsEveryChange(t *testing.T) {
	t.Parallel()
	newSource := json.RawMessage(`{"kind":"dynamic","definition":{"title":"Choose an environment and region","fields":[
		{"name":"environment","type":"select","label":"Environment","options":["production","staging","canary"]},
		{"name":"region","type":"text","label":"Region"}]}}`)
	cases := []struct {
		name string
		// change makes the change and returns the request it concerns.
		change func(t *testing.T, s *Service, clock *fxClock) string
		// item checks the item of a request left pending; nil means the
		// request must have none.
		item func(t *testing.T, item map[string]any)
	}{
		{"open", func(t *testing.T, s *Service, _ *fxClock) string {
			_, req := fxDeploy(t, s)
			return req.ID
		}, func(t *testing.T, it map[string]any) {
			for _, k := range []string{"id", "digest", "chatId", "runId", "state", "title", "reason", "fields", "prefill"} {
				if _, ok := it[k]; !ok {
					t.Errorf("item lacks %q: %v", k, it)
				}
			}
			for _, k := range []string{"answer", "deliveries", "proposals"} {
				if _, ok := it[k]; ok {
					t.Errorf("item has %q", k)
				}
			}
			if it["title"] != "Choose an environment" || it["state"] != store.ReqPending || !reflect.DeepEqual(it["missing"], []any{"environment"}) {
				t.Errorf("item = %v", it)
			}
		}},
		{"open with nothing to ask", func(t *testing.T, s *Service, _ *fxClock) string {
			sent := fxRun(t, s)
			res, err := s.OpenRequest(context.Background(), sent.RunID, "call_1", fxDecl(t, map[string]any{
				"requestKey": "known", "source": fxTextDef("Known", "a"), "supplied": map[string]any{"a": "x"}}))
			if err != nil || res.State != store.ReqAnswered {
				t.Fatalf("open = %+v, %v", res, err)
			}
			return res.RequestID
		}, nil},
		{"partial answer", func(t *testing.T, s *Service, _ *fxClock) string {
			sent, _ := fxAsk(t, s, "", "Plan a trip")
			req := fxOnePending(t, s, sent.ChatID)
			rc, err := s.Answer(context.Background(), AnswerInput{RequestID: req.ID, Values: map[string]any{"destination": "Paris"}})
			if err != nil || rc.ApplyState != Partial {
				t.Fatalf("answer = %+v, %v", rc, err)
			}
			return req.ID
		}, func(t *testing.T, it map[string]any) {
			if !reflect.DeepEqual(it["partial"], map[string]any{"destination": "Paris"}) {
				t.Errorf("partial = %v", it["partial"])
			}
			for _, m := range it["missing"].([]any) {
				if m == "destination" {
					t.Errorf("missing still names destination: %v", it["missing"])
				}
			}
		}},
		{"answer", func(t *testing.T, s *Service, _ *fxClock) string {
			_, req := fxDeploy(t, s)
			if _, err := s.Answer(context.Background(), AnswerInput{RequestID: req.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, nil},
		{"cancel", func(t *testing.T, s *Service, _ *fxClock) string {
			_, req := fxDeploy(t, s)
			if _, err := s.Cancel(context.Background(), req.ID, ""); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, nil},
		{"stop", func(t *testing.T, s *Service, _ *fxClock) string {
			sent, req := fxDeploy(t, s)
			if _, err := s.Stop(context.Background(), sent.RunID, ""); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, nil},
		{"expire by deadline", func(t *testing.T, s *Service, clock *fxClock) string {
			ctx := context.Background()
			sent := fxRun(t, s)
			res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{"requestKey": "soon",
				"source": fxTextDef("Soon", "a"), "expiresAt": clock.Now().Add(time.Minute).Format(time.RFC3339)}))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := fxItem(t, s, res.RequestID); !ok {
				t.Fatal("no item before the deadline")
			}
			clock.Advance(2 * time.Minute)
			if err := s.expireDue(ctx); err != nil {
				t.Fatal(err)
			}
			return res.RequestID
		}, nil},
		{"template invalidated", func(t *testing.T, s *Service, _ *fxClock) string {
			ctx := context.Background()
			def := forms.Definition{Title: "Region", Fields: []forms.Field{{Name: "region", Type: "text", Label: "Region", Required: true}}}
			if err := s.RegisterTemplate(ctx, "region", def); err != nil {
				t.Fatal(err)
			}
			sent := fxRun(t, s)
			res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{"requestKey": "where",
				"source": map[string]any{"kind": "template", "template": "region"}}))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.InvalidateTemplate(ctx, "region"); err != nil {
				t.Fatal(err)
			}
			return res.RequestID
		}, nil},
		{"replace applied", func(t *testing.T, s *Service, _ *fxClock) string {
			_, req := fxDeploy(t, s)
			res, err := s.Replace(context.Background(), ReplaceInput{RequestID: req.ID, Source: newSource}, "")
			if err != nil || res.ConfirmationRequired {
				t.Fatalf("replace = %+v, %v", res, err)
			}
			return req.ID
		}, func(t *testing.T, it map[string]any) {
			if it["revision"] != 2.0 || it["title"] != "Choose an environment and region" || len(it["fields"].([]any)) != 2 {
				t.Errorf("item = %v", it)
			}
		}},
		{"replace accepted", func(t *testing.T, s *Service, _ *fxClock) string {
			ctx := context.Background()
			_, req := fxDeploy(t, s)
			if err := s.SaveDraft(ctx, Draft{RequestID: req.ID, Revision: 1, Values: forms.Values{"environment": "staging"}, Edited: true}); err != nil {
				t.Fatal(err)
			}
			res, err := s.Replace(ctx, ReplaceInput{RequestID: req.ID, Source: newSource}, "")
			if err != nil || !res.ConfirmationRequired {
				t.Fatalf("replace = %+v, %v", res, err)
			}
			if it, _ := fxItem(t, s, req.ID); it["revision"] != 1.0 {
				t.Fatalf("a replace waiting for the user changed the item: %v", it)
			}
			if _, err := s.Decide(ctx, Decision{ProposalID: res.ProposalID, Accept: true}, ""); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, func(t *testing.T, it map[string]any) {
			if it["revision"] != 2.0 || it["title"] != "Choose an environment and region" {
				t.Errorf("item = %v", it)
			}
		}},
		{"resolve accepted", func(t *testing.T, s *Service, _ *fxClock) string {
			_, req, p := fxResolveProposal(t, s)
			if _, err := s.Decide(context.Background(), Decision{ProposalID: p.ID, Accept: true}, ""); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, func(t *testing.T, it map[string]any) {
			// Accepting fills the draft, never the request.
			if it["revision"] != 1.0 || it["partial"] != nil {
				t.Errorf("item = %v", it)
			}
		}},
		{"chat deleted", func(t *testing.T, s *Service, _ *fxClock) string {
			sent, req := fxDeploy(t, s)
			if err := s.Delete(context.Background(), sent.ChatID, ""); err != nil {
				t.Fatal(err)
			}
			return req.ID
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := newFxClock()
			s := fxOpen(t, clock)
			id := tc.change(t, s, clock)
			fxCheckItems(t, s)
			it, ok := fxItem(t, s, id)
			listed := strings.Contains(strings.Join(fxListed(t, s, ""), ","), id)
			switch {
			case tc.item == nil && (ok || listed):
				t.Fatalf("request %s is not pending but has an item (listed %v): %v", id, listed, it)
			case tc.item != nil && (!ok || !listed):
				t.Fatalf("pending request %s has no item (listed %v)", id, listed)
			case tc.item != nil:
				tc.item(t, it)
			}
		})
	}
}

// TestPendingListLeavesOutArchivedChats: across all chats the list shows
// active chats only; asked for by chat, an archived chat's list still
// shows. Both agree with the full views.
func TestPendingListLeavesOutArchivedChats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	kept, keptReq := fxDeploy(t, s)
	gone, goneReq := fxDeploy(t, s)
	if got := fxListed(t, s, ""); !reflect.DeepEqual(got, []string{keptReq.ID, goneReq.ID}) {
		t.Fatalf("listed = %v", got)
	}
	if _, err := s.Archive(ctx, gone.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	if got := fxListed(t, s, ""); !reflect.DeepEqual(got, []string{keptReq.ID}) {
		t.Fatalf("after archiving, listed = %v", got)
	}
	if got := fxListed(t, s, gone.ChatID); !reflect.DeepEqual(got, []string{goneReq.ID}) {
		t.Fatalf("the archived chat's own list = %v", got)
	}
	if got := fxListed(t, s, kept.ChatID); !reflect.DeepEqual(got, []string{keptReq.ID}) {
		t.Fatalf("the active chat's own list = %v", got)
	}
	views, err := s.Pending(ctx, "")
	if err != nil || len(views) != 1 || views[0].ID != keptReq.ID {
		t.Fatalf("views = %+v, %v", views, err)
	}
}

// TestPendingListMatchesViews: the stored list, decoded, is the item part
// of the full views, in the same order.
func TestPendingListMatchesViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, _ := fxAsk(t, s, "", "Plan a trip")
	fxDeploy(t, s)
	if _, err := s.OpenRequest(ctx, sent.RunID, "call_x", fxDecl(t, map[string]any{"requestKey": "extra",
		"reason": "why <not> & more", "source": fxTextDef("Extra", "a", "b"), "prefill": map[string]any{"a": "x"},
		"context": map[string]any{"n": 1.5}})); err != nil {
		t.Fatal(err)
	}
	l, err := s.PendingItems(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	items, err := l.Items()
	if err != nil {
		t.Fatal(err)
	}
	views, err := s.Pending(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || len(views) != 3 || l.Len() != 3 {
		t.Fatalf("%d items, %d views", len(items), len(views))
	}
	for i := range views {
		got, _ := json.Marshal(items[i])
		want, _ := json.Marshal(views[i].RequestItem)
		if string(got) != string(want) {
			t.Errorf("item %d:\n  %s\nview:\n  %s", i, got, want)
		}
	}
	var doc strings.Builder
	if _, err := l.WriteTo(&doc); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		OK       bool              `json:"ok"`
		Requests []json.RawMessage `json:"requests"`
	}
	if err := json.Unmarshal([]byte(doc.String()), &parsed); err != nil || !parsed.OK || len(parsed.Requests) != 3 {
		t.Fatalf("document %s: %v", doc.String(), err)
	}
	if !strings.HasPrefix(doc.String(), `{"ok":true,"requests":[{`) {
		t.Fatalf("document starts %.40s", doc.String())
	}
	var empty strings.Builder
	if _, err := (PendingList{}).WriteTo(&empty); err != nil || empty.String() != `{"ok":true,"requests":[],"approvals":[]}` {
		t.Fatalf("empty list = %s, %v", empty.String(), err)
	}
}

// fxSchema4 writes, at path, a database at schema version 4 (before the
// pending items) holding a copy of src's conversations.
func fxSchema4(t *testing.T, src, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	files, err := filepath.Glob(filepath.Join("..", "store", "migrations", "000[1-4]_*.sql"))
	if err != nil || len(files) != 4 {
		t.Fatalf("migrations 1–4: %v, %v", files, err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
	exec(`PRAGMA journal_mode=WAL`)
	exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`)
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exec(string(b))
		exec(`INSERT INTO schema_migrations VALUES (?, ?, 0)`, i+1, filepath.Base(f))
	}
	exec(`ATTACH DATABASE ? AS src`, src)
	for _, table := range []string{"chats", "runs", "messages", "requests", "revisions", "drafts", "answers", "proposals", "deliveries", "receipts", "templates"} {
		// The columns the old schema had; later migrations add more.
		var cols string
		if err := conn.QueryRowContext(ctx, `SELECT group_concat(name) FROM pragma_table_info(?)`, table).Scan(&cols); err != nil {
			t.Fatal(err)
		}
		exec(`INSERT INTO main.` + table + ` (` + cols + `) SELECT ` + cols + ` FROM src.` + table)
	}
	exec(`DETACH DATABASE src`)
}

// TestOpenFillsItemsOfAnOlderDatabase: a database from before the pending
// items, with requests pending in active and archived chats, gets every
// item on its first open, the same as if they had been kept all along.
func TestOpenFillsItemsOfAnOlderDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := fxOpen(t, nil)
	sent, _ := fxAsk(t, src, "", "Plan a trip")
	trip := fxOnePending(t, src, sent.ChatID)
	if _, err := src.Answer(ctx, AnswerInput{RequestID: trip.ID, Values: map[string]any{"destination": "Lyon"}}); err != nil {
		t.Fatal(err)
	}
	_, answered := fxDeploy(t, src)
	if _, err := src.Answer(ctx, AnswerInput{RequestID: answered.ID, Values: map[string]any{"environment": "staging"}}); err != nil {
		t.Fatal(err)
	}
	archived, _ := fxDeploy(t, src)
	if _, err := src.Archive(ctx, archived.ChatID, ""); err != nil {
		t.Fatal(err)
	}
	want, err := storedItems(ctx, src.reader())
	if err != nil || len(want) != 2 {
		t.Fatalf("source items = %d, %v", len(want), err)
	}

	path := filepath.Join(t.TempDir(), "v4.db")
	fxSchema4(t, src.Path(), path)
	s, err := Open(ctx, Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	fxCheckItemsAtEnd(t, s)
	got, err := storedItems(ctx, s.reader())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("filled items:\n%+v\nwant\n%+v", got, want)
	}
	if stale, err := s.store.PendingItemsStale(ctx, s.reader()); err != nil || stale {
		t.Fatalf("still marked stale after the fill: %v, %v", stale, err)
	}
	var v int
	if s.reader().QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); v < 5 {
		t.Fatalf("schema version %d", v)
	}
}

// TestOpenRefillsItemsMarkedStale: a bulk load that wrote requests
// without this package marks the items stale, and the next open rebuilds
// them, dropping any that no longer belong.
func TestOpenRefillsItemsMarkedStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, req := fxDeploy(t, s)
	_, other := fxDeploy(t, s)
	db := fxSQL(t, s)
	for _, q := range []string{
		`DELETE FROM pending_items WHERE request_id = '` + req.ID + `'`,
		`UPDATE pending_items SET item = '{}' WHERE request_id = '` + other.ID + `'`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.db.Write(ctx, func(tx store.Handle) error { return s.store.MarkPendingItemsStale(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, Options{DBPath: s.Path()})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	fxCheckItems(t, again)
	if got := fxListed(t, again, ""); !reflect.DeepEqual(got, []string{req.ID, other.ID}) {
		t.Fatalf("listed = %v", got)
	}
}

// `pending` is a read: with nothing overdue it commits nothing (a screen
// open on the same database sees no change), and a request past its
// deadline is expired by it, not listed.
func TestPendingReadCommitsOnlyExpiries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFxClock()
	s := fxOpen(t, clock)
	sent := fxRun(t, s)
	res, err := s.OpenRequest(ctx, sent.RunID, "call_1", fxDecl(t, map[string]any{"requestKey": "soon",
		"source": fxTextDef("Soon", "a"), "expiresAt": clock.Now().Add(time.Minute).Format(time.RFC3339)}))
	if err != nil {
		t.Fatal(err)
	}
	// The reader, a short-lived process of its own, as `followup pending` is.
	r, err := Open(ctx, Options{DBPath: s.Path(), Now: clock.Now, ShortLived: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	version := func() int64 {
		v, err := s.db.CommitsElsewhere(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	listed := func() bool {
		l, err := r.PendingItems(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var doc strings.Builder
		l.WriteTo(&doc)
		return strings.Contains(doc.String(), res.RequestID)
	}
	v := version()
	if !listed() {
		t.Fatal("the request is not listed before its deadline")
	}
	if version() != v {
		t.Fatal("a read with nothing overdue committed")
	}
	clock.Advance(2 * time.Minute)
	if listed() {
		t.Fatal("a request past its deadline is listed as pending")
	}
	if version() == v {
		t.Fatal("the overdue request was not expired in the database")
	}
	if got, err := s.Request(ctx, res.RequestID); err != nil || got.State != store.ReqExpired {
		t.Fatalf("request = %+v, %v", got.State, err)
	}
}

// The pending list's entries carry their waiting proposals as the views
// of the request do.
func TestPendingListProposalsAreTheViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	_, req, _ := fxResolveProposal(t, s)
	l, err := s.PendingItems(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	if _, err := l.WriteTo(&doc); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Requests []struct {
			ID        string          `json:"id"`
			Proposals json.RawMessage `json:"proposals"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(doc.String()), &parsed); err != nil || len(parsed.Requests) != 1 {
		t.Fatalf("document %s: %v", doc.String(), err)
	}
	if got, want := string(parsed.Requests[0].Proposals), mustJSON(req.Proposals); got != want {
		t.Fatalf("proposals in the list:\n  %s\nin the request's view:\n  %s", got, want)
	}
}
