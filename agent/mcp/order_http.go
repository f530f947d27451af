package mcp

import (
	"bytes"
	"io"
	"net/http"
	"strings"
)

// orderRoundTripper reads the order of the requestedSchemas in an HTTP
// server's answers as they stream past (a JSON body, or the data of each
// server-sent event), leaving the bytes untouched for the SDK.
type orderRoundTripper struct {
	next   http.RoundTripper
	orders *schemaOrders
}

// maxLookBytes bounds what one message may hold for its order to be read:
// a bigger one passes unread (its form is then drawn in sorted order).
const maxLookBytes = 1 << 20

func (t orderRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		resp.Body = &orderBody{rc: resp.Body, orders: t.orders, sse: true}
	case strings.HasPrefix(ct, "application/json"):
		resp.Body = &orderBody{rc: resp.Body, orders: t.orders}
	}
	return resp, nil
}

// orderBody passes a response body through, reading each message in it.
type orderBody struct {
	rc     io.ReadCloser
	orders *schemaOrders
	sse    bool
	line   []byte // the SSE line being read
	data   []byte // the data of the SSE event being read, or the JSON body
	over   bool   // the current message is past maxLookBytes
}

func (b *orderBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.feed(p[:n])
	if err == io.EOF && !b.sse {
		b.flush()
	}
	return n, err
}

func (b *orderBody) Close() error { return b.rc.Close() }

func (b *orderBody) feed(p []byte) {
	if !b.sse {
		b.keep(p)
		return
	}
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.line = append(b.line, p...)
			if len(b.line) > maxLookBytes {
				b.line, b.over = b.line[:0], true
			}
			return
		}
		b.line = append(b.line, p[:i]...)
		p = p[i+1:]
		line := bytes.TrimSuffix(b.line, []byte("\r"))
		switch {
		case len(line) == 0:
			b.flush() // an empty line ends the event
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if len(b.data) > 0 {
				b.keep([]byte("\n"))
			}
			b.keep(d)
		}
		b.line = b.line[:0]
	}
}

func (b *orderBody) keep(p []byte) {
	if b.over {
		return
	}
	if len(b.data)+len(p) > maxLookBytes {
		b.data, b.over = b.data[:0], true
		return
	}
	b.data = append(b.data, p...)
}

func (b *orderBody) flush() {
	if !b.over && len(b.data) > 0 {
		b.orders.lookRaw(b.data)
	}
	b.data, b.over = b.data[:0], false
}
