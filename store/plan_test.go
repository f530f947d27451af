package store

import (
	"context"
	"strings"
	"testing"
)

// queryPlan is EXPLAIN QUERY PLAN of q, one detail line a step.
func queryPlan(t testing.TB, db Handle, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}

// The runs to resume are found from the few the subquery names, whatever
// indexes the chats have: walking every active chat's runs reads much of
// the file (a chats-by-state index once made the planner do that).
func TestResumableRunsPlan(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	plan := queryPlan(t, s.Reader(), resumableRuns("r.id"))
	if len(plan) == 0 || !strings.HasPrefix(plan[0], "SEARCH r USING INDEX sqlite_autoindex_runs_1 (id=?)") {
		t.Fatalf("plan: %s", strings.Join(plan, " / "))
	}
}

// The look for overdue requests that precedes every read and command
// probes the index of pending requests with a deadline, whatever the size
// of the history.
func TestAnyDuePlan(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	plan := strings.Join(queryPlan(t, s.Reader(), strings.Replace("SELECT "+dueProbe, "?", "0", 1)), " / ")
	if !strings.Contains(plan, "SEARCH requests USING COVERING INDEX requests_pending_expiry") {
		t.Fatalf("plan: %s", plan)
	}
}

// The one look before every read (Look) probes three small indexes: the
// open serve sessions, the open questions of MCP servers, the pending
// requests' deadlines.
func TestLookPlan(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	steps := queryPlan(t, s.Reader(), strings.Replace(lookout, "?", "0", 1))
	plan := strings.Join(steps, " / ")
	for _, index := range []string{"serve_sessions_open", "mcp_requests_classic_open", "requests_pending_expiry"} {
		if !strings.Contains(plan, "INDEX "+index) {
			t.Fatalf("plan: %s", plan)
		}
	}
	// The first two indexes are partial: they hold the open rows only.
	for _, step := range steps {
		if strings.HasPrefix(step, "SCAN ") && step != "SCAN CONSTANT ROW" && !strings.Contains(step, " USING COVERING INDEX ") {
			t.Fatalf("%s in plan: %s", step, plan)
		}
	}
}
