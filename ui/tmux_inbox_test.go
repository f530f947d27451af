package ui

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/ui/termtest"
)

// A question an MCP client asks through `followup mcp serve` while the
// screen is on another chat appears within a second in the tab row, after
// that chat's own question, with who asks; ctrl+n shows it in its chat
// and the answer typed there is what the client reads.
func TestTerminalServeQuestionJoinsTheTabRow(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	cli(t, db, "ask", "Check deployment")
	tm := startApp(t, db, 110, 30)
	tm.WaitFor("Which environment")

	cmd := exec.Command(termtest.Binary(t), "--db", db, "mcp", "serve")
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "Claude Code", Version: "1.0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatalf("connect to mcp serve: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "input_request", Arguments: map[string]any{
		"requestKey": "region", "reason": "To deploy there",
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Pick a region",
			"fields": []any{map[string]any{"name": "region", "type": "text", "label": "Region"}}}}}})
	if err != nil || res.IsError {
		t.Fatalf("input_request: %v %v", err, res)
	}
	tm.WaitFor("1 Choose an environment", "↗ Claude Code: Pick a region",
		"1 question waits in another chat: Claude Code asks “Pick a region” — ctrl+n shows it")
	tm.Keys("C-n")
	tm.WaitFor("asked by Claude Code", "To deploy there", "↗ The agent: Choose an environment")
}
