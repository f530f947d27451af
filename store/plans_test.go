package store

import (
	"context"
	"database/sql"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// explaining is a Handle that records EXPLAIN QUERY PLAN of every query
// run through it, with the query's own arguments, before running it.
type explaining struct {
	h     Handle
	t     testing.TB
	mu    sync.Mutex
	plans []string // one per query: the query, then its plan lines
}

func (e *explaining) explain(query string, args []any) {
	if q := strings.ToUpper(strings.TrimSpace(query)); !strings.HasPrefix(q, "SELECT") && !strings.HasPrefix(q, "WITH") {
		return
	}
	rows, err := e.h.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		e.t.Fatalf("explain %s: %v", query, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			e.t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	e.mu.Lock()
	e.plans = append(e.plans, strings.Join(strings.Fields(query), " ")+"\n  "+strings.Join(lines, "\n  "))
	e.mu.Unlock()
}

func (e *explaining) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return e.h.ExecContext(ctx, query, args...)
}

func (e *explaining) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	e.explain(query, args)
	return e.h.QueryContext(ctx, query, args...)
}

func (e *explaining) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	e.explain(query, args)
	return e.h.QueryRowContext(ctx, query, args...)
}

// TestEveryListIsIndexed runs every read of a list through EXPLAIN QUERY
// PLAN with real arguments: each finds its rows through an index and none
// sorts or scans a whole table of the history (chats, runs, messages,
// requests, revisions, deliveries, proposals, answers, serve sessions).
// The pending list reads pending_items whole by design: it holds only the
// open requests.
// A sort or a list of every active chat would grow with the history, so
// neither is allowed but where the rows are few by nature.
func TestEveryListIsIndexed(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	e := &explaining{h: s.Reader(), t: t}
	ids := []string{"rq_1", "rq_2"}
	reads := map[string]func() error{
		"ListChats first":     func() error { _, err := qs.ListChats(ctx, e, ChatCursor{}, 50); return err },
		"ListChats after":     func() error { _, err := qs.ListChats(ctx, e, ChatCursor{UpdatedAt: 5, ID: "ch_1"}, 50); return err },
		"LatestChatID":        func() error { _, err := qs.LatestChatID(ctx, e); return err },
		"PendingCounts":       func() error { _, err := qs.PendingCounts(ctx, e, []string{"ch_1", "ch_2"}); return err },
		"Look":                func() error { _, err := qs.Look(ctx, e, 5); return err },
		"CountPendingOutside": func() error { _, err := qs.CountPendingOutside(ctx, e, "ch_1"); return err },
		"Transcript":          func() error { _, err := qs.Transcript(ctx, e, "ch_1", 0, 60); return err },
		"Transcript before":   func() error { _, err := qs.Transcript(ctx, e, "ch_1", 500, 60); return err },
		"History":             func() error { _, err := qs.History(ctx, e, "run_1"); return err },
		"RunMessages":         func() error { _, err := qs.RunMessages(ctx, e, "run_1"); return err },
		"ChatMessages":        func() error { _, err := qs.ChatMessages(ctx, e, "ch_1"); return err },
		"EarlierConversation": func() error { _, err := qs.EarlierConversation(ctx, e, "ch_1", 3, 40); return err },
		"LastTurn":            func() error { _, err := qs.LastTurn(ctx, e, "run_1"); return err },
		"LatestRun":           func() error { _, err := qs.LatestRun(ctx, e, "ch_1"); return err },
		"ResumableRuns":       func() error { _, err := qs.ResumableRuns(ctx, e); return err },
		"ListRequests chat":   func() error { _, err := qs.ListRequests(ctx, e, RequestFilter{ChatID: "ch_1"}); return err },
		"ListRequests run": func() error {
			_, err := qs.ListRequests(ctx, e, RequestFilter{RunID: "run_1", State: ReqPending, Limit: 1})
			return err
		},
		"ListRequestsWithRevisions chat": func() error {
			_, _, err := qs.ListRequestsWithRevisions(ctx, e, RequestFilter{ChatID: "ch_1", State: ReqPending})
			return err
		},
		"ListRequestsWithRevisions pending": func() error {
			_, _, err := qs.ListRequestsWithRevisions(ctx, e, RequestFilter{State: ReqPending, ActiveChats: true})
			return err
		},
		"RequestsByID":     func() error { _, err := qs.RequestsByID(ctx, e, ids); return err },
		"CurrentRevisions": func() error { _, err := qs.CurrentRevisions(ctx, e, ids); return err },
		"Revisions":        func() error { _, err := qs.Revisions(ctx, e, "rq_1"); return err },
		"AnswersOf":        func() error { _, err := qs.AnswersOf(ctx, e, ids); return err },
		"DeliveriesOf":     func() error { _, err := qs.DeliveriesOf(ctx, e, ids); return err },
		"RunDeliveries": func() error {
			_, err := qs.RunDeliveries(ctx, e, "run_1", DeliveryPending, DeliveryUnknown)
			return err
		},
		"PendingProposalsOf":        func() error { _, err := qs.PendingProposalsOf(ctx, e, ids); return err },
		"DueRequests":               func() error { _, err := qs.DueRequests(ctx, e, 5); return err },
		"PendingTemplateRequests":   func() error { _, err := qs.PendingTemplateRequests(ctx, e, "t"); return err },
		"PendingItemJSON chat":      func() error { _, err := qs.PendingItemJSON(ctx, e, "ch_1"); return err },
		"PendingItemJSON all":       func() error { _, err := qs.PendingItemJSON(ctx, e, ""); return err },
		"PendingListProposals chat": func() error { _, err := qs.PendingListProposals(ctx, e, "ch_1"); return err },
		"PendingListProposals all":  func() error { _, err := qs.PendingListProposals(ctx, e, ""); return err },
		"PendingOutside":            func() error { _, err := qs.PendingOutside(ctx, e, "ch_1", 32, false); return err },
		"PendingApprovals chat":     func() error { _, err := qs.PendingApprovals(ctx, e, "ch_1"); return err },
		"PendingApprovals all":      func() error { _, err := qs.PendingApprovals(ctx, e, ""); return err },
		"PendingOutside newest":     func() error { _, err := qs.PendingOutside(ctx, e, "ch_1", 1, true); return err },
		"TypedChat":                 func() error { _, _, err := qs.TypedChat(ctx, e); return err },
		"EndedSessionRequest": func() error {
			_, err := qs.EndedSessionRequest(ctx, e, "claude", "", "k", "h")
			return err
		},
	}
	history := []string{"chats", "runs", "messages", "requests", "revisions", "deliveries", "proposals", "answers", "serve_sessions"}
	// Sorts that are bounded by what they return.
	sorts := map[string]bool{
		"DueRequests":   true, // only the requests past their deadline, found by their index
		"ResumableRuns": true, // only the running runs and those with an undelivered answer
		// only the pending approvals, by their index's order, with ties of
		// created_at put in id order
		"PendingApprovals chat": true,
		"PendingApprovals all":  true,
		// only what was typed after the newest chat changed: the
		// composer texts and the drafts found by their save time
		"TypedChat": true,
	}
	for name, read := range reads {
		e.plans = nil
		if err := read(); err != nil && err != ErrNotFound {
			t.Fatalf("%s: %v", name, err)
		}
		if len(e.plans) == 0 {
			t.Fatalf("%s ran no query", name)
		}
		for _, plan := range e.plans {
			if strings.Contains(plan, "state = 'active')") {
				t.Errorf("%s lists every active chat (look up the few archived ones instead):\n%s", name, plan)
			}
			for _, line := range strings.Split(plan, "\n")[1:] {
				line = strings.TrimSpace(line)
				for _, table := range history {
					for _, as := range namesOf(plan, table) {
						if (line == "SCAN "+as || strings.HasPrefix(line, "SCAN "+as+" ")) && !strings.Contains(line, "INDEX") {
							t.Errorf("%s scans %s whole:\n%s", name, table, plan)
						}
					}
				}
				if strings.Contains(line, "TEMP B-TREE") && !strings.Contains(plan, " IN (?") && !sorts[name] {
					t.Errorf("%s sorts or groups what it reads:\n%s", name, plan)
				}
			}
		}
	}
}

// tableAlias finds "FROM table AS alias" and "JOIN table alias" in a query.
var tableAlias = regexp.MustCompile(`(?i)\b(?:FROM|JOIN)\s+(\w+)(?:\s+AS)?\s+(\w+)`)

// namesOf is how EXPLAIN QUERY PLAN may name table in a recorded plan
// (its query first): by the table's name, or by an alias the query gives it
// (the plan says "SCAN p", not "SCAN proposals").
func namesOf(plan, table string) []string {
	query, _, _ := strings.Cut(plan, "\n")
	names := []string{table}
	for _, m := range tableAlias.FindAllStringSubmatch(query, -1) {
		switch strings.ToUpper(m[2]) {
		case "WHERE", "JOIN", "CROSS", "LEFT", "INNER", "ON", "INDEXED", "NOT", "ORDER", "GROUP", "LIMIT", "USING":
			continue
		}
		if strings.EqualFold(m[1], table) {
			names = append(names, m[2])
		}
	}
	return names
}
