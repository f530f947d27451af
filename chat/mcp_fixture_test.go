package chat

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
)

// fxEverything opens a service whose only MCP server is server-everything
// ("everything") over transport (stdio or http), with autoApprove as
// given, connected before it returns.
func fxEverything(t *testing.T, transport string, autoApprove mcp.AutoApprove) *Service {
	t.Helper()
	p := mcptest.Find(t)
	sc := mcp.ServerConfig{Name: "everything", Type: transport, AutoApprove: autoApprove, Timeout: 20 * time.Second}
	switch transport {
	case mcp.TypeStdio:
		sc.Command, sc.Args = p.EverythingStdio(t)
		sc.Shown = "server-everything stdio"
	case mcp.TypeHTTP:
		sc.URL = p.StartEverythingHTTP(t)
		sc.Shown = sc.URL
	}
	return fxOpenMCP(t, filepath.Join(t.TempDir(), "followup.db"), mcp.Config{Path: "test", Servers: []mcp.ServerConfig{sc}})
}

// fxOpenMCP opens a service on dbPath with the MCP servers of cfg,
// connected before it returns.
func fxOpenMCP(t *testing.T, dbPath string, cfg mcp.Config) *Service {
	t.Helper()
	s, err := Open(context.Background(), Options{DBPath: dbPath, MCP: MCPOptions{Config: &cfg, LogDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.WaitMCP(ctx); err != nil {
		t.Fatal(err)
	}
	for _, st := range s.MCPStatus().Servers {
		if st.State != mcp.StateConnected {
			t.Fatalf("%s: %s %s (log %s)", st.Name, st.State, st.Reason, st.Log)
		}
	}
	return s
}

// fxOnlyApproval returns the single pending approval of a chat.
func fxOnlyApproval(t *testing.T, s *Service, chatID string) ApprovalView {
	t.Helper()
	as, err := s.PendingApprovals(context.Background(), chatID)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 {
		t.Fatalf("pending approvals = %d, want 1: %+v", len(as), as)
	}
	return as[0]
}

// fxSteps returns a chat's tool steps.
func fxSteps(t *testing.T, s *Service, chatID string) []ToolStepView {
	t.Helper()
	steps, err := s.ToolSteps(context.Background(), chatID)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}
