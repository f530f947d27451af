package store

import "context"

// MCPRequest links an input request to the MCP server and tool call that
// asked it.
type MCPRequest struct {
	RequestID     string
	RunID         string
	ToolCallID    string
	Server        string
	Mode          string // form or url
	Classic       bool   // elicitation/create: lives with the run's lease
	InputKey      string // the server's id of a durable question
	ElicitationID string
	Open          bool
}

const mcpReqCols = `request_id, run_id, tool_call_id, server, mode, classic, input_key, elicitation_id, open`

func (m *MCPRequest) dest() []any {
	return []any{&m.RequestID, &m.RunID, &m.ToolCallID, &m.Server, &m.Mode, &m.Classic, &m.InputKey, &m.ElicitationID, &m.Open}
}

// InsertMCPRequest links a request to its server and call, open.
func (Queries) InsertMCPRequest(ctx context.Context, h Handle, m MCPRequest) error {
	m.Open = true
	return insertRow(ctx, h, "mcp_requests", mcpReqCols, &m)
}

// GetMCPRequest reads a request's link (ErrNotFound for a request no MCP
// server asked).
func (Queries) GetMCPRequest(ctx context.Context, h Handle, requestID string) (MCPRequest, error) {
	return scan[MCPRequest](h.QueryRowContext(ctx, `SELECT `+mcpReqCols+` FROM mcp_requests WHERE request_id = ?`, requestID))
}

// CloseMCPRequest marks a link closed: its request is no longer pending.
func (Queries) CloseMCPRequest(ctx context.Context, h Handle, requestID string) error {
	_, err := h.ExecContext(ctx, `UPDATE mcp_requests SET open = 0 WHERE request_id = ?`, requestID)
	return err
}

// StepMCPRequests lists the requests one tool call asked, in the order
// asked.
func (Queries) StepMCPRequests(ctx context.Context, h Handle, runID, toolCallID string) ([]MCPRequest, error) {
	return queryAll(ctx, h, scan[MCPRequest], `SELECT `+mcpReqCols+` FROM mcp_requests WHERE run_id = ? AND tool_call_id = ? ORDER BY rowid`,
		runID, toolCallID)
}

// ClassicRequest is an open classic elicitation and the lease byte of the
// run it lives with.
type ClassicRequest struct {
	RequestID string
	RunSeq    int64
}

func (c *ClassicRequest) dest() []any { return []any{&c.RequestID, &c.RunSeq} }

// UnsentClassicReplies lists the classic elicitations whose reply to their
// server is still pending: usually none, read from the deliveries' state
// index.
func (Queries) UnsentClassicReplies(ctx context.Context, h Handle) ([]ClassicRequest, error) {
	return queryAll(ctx, h, scan[ClassicRequest], `SELECT DISTINCT d.request_id, r.seq FROM deliveries d INDEXED BY deliveries_state
		JOIN mcp_requests m ON m.request_id = d.request_id JOIN runs r ON r.id = m.run_id
		WHERE d.state = 'pending' AND d.target = 'mcp_server' AND m.classic = 1`)
}

// OpenClassicRequests lists the open classic elicitations: usually none,
// read from their own index.
func (Queries) OpenClassicRequests(ctx context.Context, h Handle) ([]ClassicRequest, error) {
	return queryAll(ctx, h, scan[ClassicRequest], `SELECT m.request_id, r.seq FROM mcp_requests m INDEXED BY mcp_requests_classic_open
		JOIN runs r ON r.id = m.run_id WHERE m.classic = 1 AND m.open = 1`)
}
