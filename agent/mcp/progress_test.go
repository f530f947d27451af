package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
)

// TestEverythingProgress: a call carries a progress token, and server-everything's
// progress on it reaches OnProgress with the call's origin, step by step.
func TestEverythingProgress(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	sc := ServerConfig{Name: "everything", Type: TypeStdio, Command: command, Args: args, Shown: "everything", Timeout: 20 * time.Second}
	var mu sync.Mutex
	var got []string
	origin := Origin{ChatID: "c1", RunID: "r1", ToolCallID: "t1"}
	m := New(Config{Path: "test", Servers: []ServerConfig{sc}}, Options{LogDir: t.TempDir(), OnProgress: func(o Origin, pr Progress) {
		mu.Lock()
		defer mu.Unlock()
		if o != origin {
			t.Errorf("origin %+v", o)
		}
		got = append(got, pr.String())
	}})
	t.Cleanup(func() { m.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := m.Call(ctx, CallRequest{Server: "everything", Tool: "trigger-long-running-operation",
		Arguments: json.RawMessage(`{"duration": 0.6, "steps": 3}`), Origin: origin})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	// Notifications are handled apart from the result, and progress on a
	// call that ended is dropped (the row then says done): the last step,
	// sent just before the result, may be either side of it. Every earlier
	// one arrived while the call was in flight, in order.
	want := []string{"1/3", "2/3", "3/3"}
	mu.Lock()
	defer mu.Unlock()
	if len(got) < len(want)-1 || !slices.Equal(got, want[:len(got)]) {
		t.Fatalf("progress %q, want %q (the last may be missing)", got, want)
	}
}

func TestProgressString(t *testing.T) {
	for _, tc := range []struct {
		p    Progress
		want string
	}{
		{Progress{Progress: 3, Total: 10, Message: "copying"}, "3/10 · copying"},
		{Progress{Progress: 0.5}, "0.5"},
		{Progress{Progress: 40, Total: 100}, "40/100"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}
