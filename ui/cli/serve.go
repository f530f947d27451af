package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"followup/agent/mcp"
	"followup/chat"
	"followup/ui/mcpserve"
)

// mcpServeCheck refuses an --http address that is not loopback.
func mcpServeCheck(a Args) error {
	if a.Has("http") {
		if _, err := mcpserve.CheckAddr(a.Flag("http")); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// mcpServe is `followup mcp serve`: followup as an MCP server for another
// agent, over stdin and stdout (which then carry nothing but the protocol)
// or over streamable HTTP on loopback, until the client leaves or a
// signal ends it.
func mcpServe(ctx context.Context, c *Call) error {
	o := mcpserve.Options{Version: Version()}
	inbox := mcpserve.ChatInbox(c.Service)
	if !c.Has("http") {
		if isTerminal(c.Stdin) {
			// Someone typed the command: say what it waits for.
			fmt.Fprintln(c.Stderr, "followup: speaking MCP on stdin and stdout, for an agent to start (claude mcp add followup -- followup mcp serve);"+
				" --http 127.0.0.1:PORT serves HTTP instead. ctrl+c stops.")
		}
		return served(mcpserve.ServeStdio(ctx, inbox, o, readCloser(c.Stdin), writeCloser(c.Stdout)))
	}
	tokenFile := c.Flag("token-file")
	if tokenFile == "" {
		tokenFile = filepath.Join(mcp.StateDir(os.Getenv), mcpserve.TokenFileName)
	}
	token, err := mcpserve.LoadToken(tokenFile)
	if err != nil {
		return &chat.Error{Code: chat.CodeInvalidArgument, Message: err.Error()}
	}
	ln, err := mcpserve.Listen(c.Flag("http"))
	if err != nil {
		return &chat.Error{Code: chat.CodeInvalidArgument, Message: err.Error()}
	}
	paceCollector(0)
	fmt.Fprintf(c.Stderr, "followup: serving MCP on %s (ctrl+c to stop)\n%s", mcpserve.URL(ln), mcpserve.ClientSetup(mcpserve.URL(ln), token))
	return served(mcpserve.ServeHTTP(ctx, inbox, mcpserve.HTTPOptions{Options: o, Token: token}, ln))
}

// served is the command's result: a signal ending the server is its
// normal end.
func served(err error) error {
	if err == nil || err == context.Canceled {
		return nil
	}
	return &chat.Error{Code: chat.CodeInternal, Message: err.Error()}
}

func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// writeCloser leaves stdout open when the session ends: the process ends
// it.
func writeCloser(w io.Writer) io.WriteCloser { return nopWriteCloser{w} }
