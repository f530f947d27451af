package dialog

import (
	"testing"

	"followup/agent/mcp"
)

// The servers list says why a tool is not offered, and that a tool the
// server says nothing of may be destructive.
func TestServersListSaysWhyAToolIsNotOffered(t *testing.T) {
	got := toolWords(mcp.Tool{NotOffered: mcp.NeedsTasks})
	if got != "may be destructive (not marked read-only), not offered: needs MCP tasks, which followup does not support" {
		t.Fatalf("tool words %q", got)
	}
}
