package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A stdio server that never answers 2026-07-28's server/discover would
// hold its handshake until the timeout, and starting it again on
// 2025-11-25 would kill a first start still installing it (npx). So the
// connection answers an unanswered discover itself, "method not found",
// after half the entry's timeout: the SDK then initialises on 2025-11-25
// on the same connection and process, and the server's late answer to the
// discover is dropped (docs/mcp.md).
type discoverWait struct {
	after time.Duration
	note  func() // says that the connection answered for the server

	mu       sync.Mutex
	id       jsonrpc.ID    // the SDK's id of the discover
	due      chan struct{} // closed after `after` from its writing
	armed    bool          // the discover was written
	answered bool          // by the server or the connection, or none will be sent
	ours     bool          // the connection answered
}

// dueLocked is the channel closed once the discover is due; made by the
// first to need it, as the SDK's first read may come before its first
// write.
func (d *discoverWait) dueLocked() chan struct{} {
	if d.due == nil {
		d.due = make(chan struct{})
	}
	return d.due
}

// sent arms the wait when msg is the first request and a discover; a
// first request of another method means no discover is waited for.
func (d *discoverWait) sent(msg jsonrpc.Message) {
	r, ok := msg.(*jsonrpc.Request)
	if d == nil || !ok {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.armed || d.answered:
	case r.Method != "server/discover":
		d.answered = true
	default:
		d.armed, d.id = true, r.ID
		due := d.dueLocked()
		time.AfterFunc(d.after, func() { close(due) })
	}
}

// late reports whether msg is the server's answer to a discover the
// connection answered already (dropped); a timely one ends the wait.
func (d *discoverWait) late(msg jsonrpc.Message) bool {
	r, ok := msg.(*jsonrpc.Response)
	if d == nil || !ok {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.armed || r.ID != d.id {
		return false
	}
	d.answered = true
	return d.ours
}

// read reads the next message with read, or is the connection's answer
// to the discover once it is due (ours) — also for a read that began
// before the discover was written.
func (d *discoverWait) read(ctx context.Context, read func(context.Context) (jsonrpc.Message, error)) (msg jsonrpc.Message, ours bool, err error) {
	var due chan struct{}
	if d != nil {
		d.mu.Lock()
		if !d.answered {
			due = d.dueLocked()
		}
		d.mu.Unlock()
	}
	if due == nil {
		msg, err = read(ctx)
		return msg, false, err
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-due:
			cancel()
		case <-rctx.Done():
		}
	}()
	if msg, err = read(rctx); err == nil || ctx.Err() != nil || rctx.Err() == nil {
		return msg, false, err
	}
	d.mu.Lock()
	d.answered, d.ours = true, true
	d.mu.Unlock()
	d.note()
	return &jsonrpc.Response{ID: d.id, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: "no answer to server/discover"}}, true, nil
}
