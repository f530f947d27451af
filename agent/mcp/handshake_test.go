package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// silentRead is a server that never says anything: it returns only when
// its read is cancelled.
func silentRead(ctx context.Context) (jsonrpc.Message, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestDiscoverAnsweredForAReadBegunFirst: the SDK may begin reading
// before it writes the discover; that read too ends with the
// connection's own answer once the discover is due, instead of waiting on
// a silent server until the start limit.
func TestDiscoverAnsweredForAReadBegunFirst(t *testing.T) {
	noted := make(chan struct{}, 1)
	d := &discoverWait{after: 50 * time.Millisecond, note: func() { noted <- struct{}{} }}
	type result struct {
		msg  jsonrpc.Message
		ours bool
		err  error
	}
	got := make(chan result, 1)
	go func() {
		msg, ours, err := d.read(context.Background(), silentRead)
		got <- result{msg, ours, err}
	}()
	time.Sleep(20 * time.Millisecond) // the read waits before the discover is written
	id, _ := jsonrpc.MakeID(float64(1))
	d.sent(&jsonrpc.Request{ID: id, Method: "server/discover"})
	select {
	case r := <-got:
		resp, ok := r.msg.(*jsonrpc.Response)
		if r.err != nil || !r.ours || !ok || resp.ID != id || resp.Error == nil {
			t.Fatalf("read: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a read begun before the discover was never answered")
	}
	<-noted
}

// TestNoDiscoverNoWait: a connection whose first request is not a
// discover (a server started on 2025-11-25) reads as it is.
func TestNoDiscoverNoWait(t *testing.T) {
	d := &discoverWait{after: time.Millisecond, note: func() { t.Error("answered for the server") }}
	id, _ := jsonrpc.MakeID(float64(1))
	d.sent(&jsonrpc.Request{ID: id, Method: "initialize"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, ours, err := d.read(ctx, silentRead); ours || err == nil {
		t.Fatalf("ours %v, err %v", ours, err)
	}
}
