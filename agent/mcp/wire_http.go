package mcp

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// wireRoundTripper is wireConn for an HTTP server: it moves the ids of
// followup's requests in the POST bodies it sends, and in the answers it
// receives — a JSON body, or each server-sent event as it streams past —
// it moves them back and reads the order of every requestedSchema.
type wireRoundTripper struct {
	next   http.RoundTripper
	orders *schemaOrders
	shift  idShift
}

// maxBody bounds a request body rewritten here (followup's own requests).
const maxBody = 8 << 20

func (t wireRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil && r.Method == http.MethodPost {
		raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(raw) <= maxBody {
			raw = t.rewrite(raw, t.shift.out)
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(raw))
		r.ContentLength = int64(len(raw))
		r.Header.Set("Content-Length", strconv.Itoa(len(raw)))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil }
	}
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		resp.Body = newSSEBody(resp.Body, func(data []byte) []byte { return t.rewrite(data, t.in) })
	case strings.HasPrefix(ct, "application/json"):
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		raw = t.rewrite(raw, t.in)
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		resp.ContentLength = int64(len(raw))
		resp.Header.Del("Content-Length")
	}
	return resp, nil
}

// in reads a message the server sent: schemas' order, then ids.
func (t wireRoundTripper) in(msg jsonrpc.Message) jsonrpc.Message {
	t.orders.look(msg)
	return t.shift.in(msg)
}

// rewrite applies f to the one message raw holds; anything else (a batch,
// what does not parse) passes untouched.
func (t wireRoundTripper) rewrite(raw []byte, f func(jsonrpc.Message) jsonrpc.Message) []byte {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return raw
	}
	msg, err := jsonrpc.DecodeMessage(trimmed)
	if err != nil {
		return raw
	}
	out, err := jsonrpc.EncodeMessage(f(msg))
	if err != nil {
		return raw
	}
	return out
}

// sseBody passes a stream of server-sent events through, rewriting the
// data of each event once the event is complete.
type sseBody struct {
	rc      io.ReadCloser
	r       *bufio.Reader
	rewrite func([]byte) []byte
	event   [][]byte // the event's lines other than data
	data    []byte
	hasData bool
	out     bytes.Buffer // rewritten bytes not yet read
	err     error
}

func newSSEBody(rc io.ReadCloser, rewrite func([]byte) []byte) *sseBody {
	return &sseBody{rc: rc, r: bufio.NewReaderSize(rc, 64<<10), rewrite: rewrite}
}

func (b *sseBody) Read(p []byte) (int, error) {
	for b.out.Len() == 0 && b.err == nil {
		line, err := b.r.ReadBytes('\n')
		if len(line) > 0 {
			b.line(line, err != nil)
		}
		if err != nil {
			b.end()
			b.err = err
		}
	}
	if b.out.Len() > 0 {
		return b.out.Read(p)
	}
	return 0, b.err
}

// line takes one line of the stream (with its newline unless last).
func (b *sseBody) line(line []byte, last bool) {
	text := bytes.TrimRight(line, "\r\n")
	switch {
	case len(text) == 0 && !last:
		b.end()
		b.out.Write(line)
	case bytes.HasPrefix(text, []byte("data:")):
		d := bytes.TrimPrefix(bytes.TrimPrefix(text, []byte("data:")), []byte(" "))
		if b.hasData {
			b.data = append(b.data, '\n')
		}
		b.data, b.hasData = append(b.data, d...), true
	default:
		b.event = append(b.event, append([]byte(nil), line...))
	}
}

// end writes out the event read so far, its data rewritten.
func (b *sseBody) end() {
	for _, l := range b.event {
		b.out.Write(l)
	}
	if b.hasData {
		data := b.rewrite(b.data)
		for _, l := range bytes.Split(data, []byte("\n")) {
			b.out.WriteString("data: ")
			b.out.Write(l)
			b.out.WriteByte('\n')
		}
	}
	b.event, b.data, b.hasData = nil, b.data[:0], false
}

func (b *sseBody) Close() error { return b.rc.Close() }
