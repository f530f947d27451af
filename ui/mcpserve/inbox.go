// Package mcpserve is `followup mcp serve`: followup as an MCP server, the
// human's inbox for any agent (docs/mcp-serve.md). An external agent —
// Claude Code, Codex, a script on any MCP client — asks the user through
// followup's input tools; the question appears in the followup chat screen
// open on the same database, and the agent reads the confirmed answer.
//
// The package speaks MCP (go-sdk, over stdio or streamable HTTP on
// loopback) and holds no rules: every tool call goes to a Session of the
// Inbox, which package chat implements. The package's own concerns are
// the transport, which MCP session a call belongs to, when a session ends,
// the tool list the model sees, and input_wait's bound.
package mcpserve

import (
	"context"
	"encoding/json"
	"time"

	"followup/chat"
)

// Inbox is what the server needs from followup's host: one Session per MCP
// session.
type Inbox interface {
	// OpenSession starts the session of one MCP client. It should write
	// nothing until the client asks something: clients that only list the
	// tools leave no chat behind.
	OpenSession(ctx context.Context, c Client) (Session, error)
}

// Client is the MCP client on the other end of one session: Name is its
// clientInfo's title when it gave one ("Claude Code"), else its name; Key
// tells which client may take back the questions of its ended sessions
// (docs/mcp-serve.md#sessions).
type Client = chat.ServeClient

// Session is one MCP session's view of followup: its own chat and the
// requests it opened there, nothing else (another session's request ids
// are NOT_FOUND). Each tool method takes the tool call's raw arguments and
// returns the host's docs/input-requests.md result: {"ok":true,…} or
// {"ok":false,"error":{…}}.
type Session interface {
	Capabilities(ctx context.Context, args json.RawMessage) json.RawMessage
	List(ctx context.Context, args json.RawMessage) json.RawMessage
	Request(ctx context.Context, args json.RawMessage) json.RawMessage
	ReadAnswer(ctx context.Context, args json.RawMessage) json.RawMessage
	Cancel(ctx context.Context, args json.RawMessage) json.RawMessage
	// Wait returns what ReadAnswer returns for requestID as soon as the
	// request is no longer pending — answered, cancelled or expired, in
	// this process or another — or, when timeout passes first, with state
	// "pending". It returns early when ctx ends (the client gave up the
	// call or the session ended).
	Wait(ctx context.Context, requestID string, timeout time.Duration) json.RawMessage
	// Waiting reports whether one of the session's questions waits for
	// the user.
	Waiting(ctx context.Context) bool
	// End closes the session because its client went away: its pending
	// requests expire (disconnected); its chat and answers stay readable.
	End(ctx context.Context) error
}
