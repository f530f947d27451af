package store

import (
	"context"
	"strings"
	"testing"
)

// The looks every read and command makes at serve sessions read their
// own indexes, never the whole table or every request.
func TestSessionQueryPlans(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	for q, want := range map[string]string{
		`SELECT ` + sessionCols + ` FROM serve_sessions INDEXED BY serve_sessions_open WHERE state = 'open' ORDER BY seq`: "USING INDEX serve_sessions_open",
		`SELECT ` + sessionCols + ` FROM serve_sessions WHERE chat_id = 'c' ORDER BY seq DESC LIMIT 1`:                    "USING INDEX serve_sessions_chat (chat_id=?)",
		`SELECT ` + reqCols + ` FROM requests WHERE session_id = 's' AND request_key = 'k'`:                               "USING INDEX requests_session_key (session_id=? AND request_key=?)",
		`SELECT COUNT(*) FROM requests WHERE session_id = 's' AND state = 'pending'`:                                      "(session_id=?)",
	} {
		plan := strings.Join(queryPlan(t, s.Reader(), q), " / ")
		if !strings.Contains(plan, want) || strings.Contains(plan, "SCAN serve_sessions /") || strings.HasSuffix(plan, "SCAN serve_sessions") ||
			strings.Contains(plan, "SCAN requests") {
			t.Errorf("%.70s…: plan %q, want %q", q, plan, want)
		}
	}
}

// A session's byte of the lease file is held while it lives and free the
// moment it is released, and never meets a run's.
func TestSessionLease(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	run, err := s.AcquireLease(7)
	if err != nil {
		t.Fatal(err)
	}
	defer run.Release()
	if held, err := s.SessionLeaseHeld(7); err != nil || held {
		t.Fatalf("a run's byte reads as session 7's: %v %v", held, err)
	}
	l, err := s.AcquireSessionLease(7)
	if err != nil {
		t.Fatal(err)
	}
	if held, _ := s.SessionLeaseHeld(7); !held {
		t.Error("a held session reads as free")
	}
	if _, err := s.AcquireSessionLease(7); err != ErrLeaseHeld {
		t.Errorf("a second holder: %v", err)
	}
	l.Release()
	if held, _ := s.SessionLeaseHeld(7); held {
		t.Error("a released session reads as held")
	}
	ctx := context.Background()
	var n int
	if err := s.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM serve_sessions`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("serve_sessions: %d %v", n, err)
	}
}

// A process's open sessions share one descriptor of the lock file, and
// hold none once they have all ended.
func TestSessionLeasesShareOneFile(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	var ls []*Lease
	for seq := int64(1); seq <= 50; seq++ {
		l, err := s.AcquireSessionLease(seq)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	if ls[0].f != ls[49].f {
		t.Fatal("two sessions, two descriptors")
	}
	f := ls[0].f
	for i, l := range ls {
		if err := l.Release(); err != nil {
			t.Fatal(err)
		}
		if held, _ := s.SessionLeaseHeld(int64(i + 1)); held {
			t.Fatalf("session %d still held after Release", i+1)
		}
		if i < 49 {
			if held, _ := s.SessionLeaseHeld(50); !held {
				t.Fatal("releasing one session freed another")
			}
		}
	}
	if f.Fd() != ^uintptr(0) {
		t.Error("the lock file is still open after the last session ended")
	}
}
