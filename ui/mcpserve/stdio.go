package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP client over in and out — the process's
// standard input and output, which carry nothing but the protocol — until
// the client closes its side or ctx ends. Then the session ends: what it
// left pending expires (disconnected).
func ServeStdio(ctx context.Context, inbox Inbox, o Options, in io.ReadCloser, out io.WriteCloser) error {
	s := newServer(inbox, "stdio", o)
	w := &lockedWriter{w: out}
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: wellFormed(in, w), Writer: w}, nil)
	if err != nil {
		return err
	}
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case err = <-closed:
	case <-ctx.Done():
		s.shutdown()
		ss.Close() // in case it never opened a session
		err = <-closed
	}
	s.shutdown()
	s.ending.Wait()
	return err
}

// wellFormed passes on the lines of in that are JSON-RPC messages and
// answers each other line with a JSON-RPC error on out: the SDK ends the
// session at the first line it cannot read. A line too long to read ends
// it, saying so.
func wellFormed(in io.ReadCloser, out io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(nil, mcp.DefaultMaxLineLength)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			if code, problem := lineProblem(line); problem != "" {
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": problem}})
				out.Write(append(b, '\n'))
				continue
			}
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		if err := sc.Err(); err != nil {
			pw.CloseWithError(fmt.Errorf("the client sent a line followup cannot read (%v), so the session cannot go on", err))
			return
		}
		pw.Close()
	}()
	return struct {
		io.Reader
		io.Closer
	}{pr, closeBoth{pr, in}}
}

// lineProblem is the JSON-RPC error of a line that is no message (its
// code and words), or "".
func lineProblem(line []byte) (int, string) {
	switch {
	case !utf8.Valid(line):
		return jsonrpc.CodeParseError, "Parse error: the line is not valid UTF-8"
	case !json.Valid(line):
		return jsonrpc.CodeParseError, "Parse error: the line is not JSON"
	case line[0] == '[':
		var batch []json.RawMessage
		json.Unmarshal(line, &batch)
		if len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
			}
		}
	default:
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error()
		}
	}
	return 0, ""
}

type closeBoth [2]io.Closer

func (c closeBoth) Close() error {
	c[0].Close()
	return c[1].Close()
}

// lockedWriter writes the SDK's messages and wellFormed's errors one at a
// time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }
