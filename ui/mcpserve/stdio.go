package mcpserve

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP client over in and out — the process's
// standard input and output, which carry nothing but the protocol — until
// the client closes its side or ctx ends. Then the session ends: what it
// left pending expires (disconnected).
func ServeStdio(ctx context.Context, inbox Inbox, o Options, in io.ReadCloser, out io.WriteCloser) error {
	s := newServer(inbox, "stdio", o)
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: in, Writer: out}, nil)
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
