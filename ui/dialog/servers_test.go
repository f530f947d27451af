package dialog

import (
	"strings"
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

// A configuration whose every server has a problem is not "no server
// configured": the list says none is usable, under the problems.
func TestServersListWithOnlyProblems(t *testing.T) {
	st := mcp.Status{Config: "/home/me/mcp.json", Problems: []string{"/home/me/mcp.json: not valid JSON at line 1, column 51"}}
	out, _ := NewServers(Keys{}, st, nil).draw(80)
	got := strings.Join(out, "\n")
	if !strings.Contains(got, "No MCP server is usable: fix the problems above.") || strings.Contains(got, "No MCP server is configured") {
		t.Fatalf("the servers list says:\n%s", got)
	}
}
