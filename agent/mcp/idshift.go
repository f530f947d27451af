package mcp

import (
	"crypto/rand"
	"encoding/binary"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Each process numbers its JSON-RPC requests from 1, so a call retried by
// another process (an input_required call answered after a restart) would
// reuse the id of the call it retries — which the protocol forbids
// (sep-2322: the retry is a new request) and a server may take for a
// duplicate. idShift moves the ids of followup's requests on the wire by
// an offset drawn at random per connection, and moves the ids of the
// answers back, so the SDK sees its own numbering. Requests the server
// sends and followup's answers to them keep the server's ids.
type idShift int64

// newIDShift draws an offset in [2^40, 2^41): far from any small id, and
// its sums stay exact in a JavaScript number.
func newIDShift() idShift {
	var b [8]byte
	rand.Read(b[:])
	return idShift(1<<40 + int64(binary.LittleEndian.Uint64(b[:])>>24))
}

// out is msg as it is written: a request of followup's with its id moved.
func (s idShift) out(msg jsonrpc.Message) jsonrpc.Message {
	r, ok := msg.(*jsonrpc.Request)
	if !ok || !r.ID.IsValid() {
		return msg
	}
	n, ok := r.ID.Raw().(int64)
	if !ok {
		return msg
	}
	c := *r
	c.ID, _ = jsonrpc.MakeID(float64(n + int64(s)))
	return &c
}

// in is msg as the SDK reads it: an answer to a request of followup's with
// its id moved back.
func (s idShift) in(msg jsonrpc.Message) jsonrpc.Message {
	r, ok := msg.(*jsonrpc.Response)
	if !ok || !r.ID.IsValid() {
		return msg
	}
	n, ok := r.ID.Raw().(int64)
	if !ok || n < int64(s) {
		return msg
	}
	c := *r
	c.ID, _ = jsonrpc.MakeID(float64(n - int64(s)))
	return &c
}
