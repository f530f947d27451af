package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent/mcp/mcptest"
)

// rootsServer is an in-process server whose tool "where" answers with the roots it
// gets from roots/list, or the error it got.
func rootsServer(t *testing.T, roots []string) *Manager {
	t.Helper()
	sc, _ := sdkServer(t, false, func(srv *sdk.Server) {
		sdk.AddTool(srv, &sdk.Tool{Name: "where", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *sdk.CallToolRequest, _ any) (*sdk.CallToolResult, any, error) {
				res, err := req.Session.ListRoots(ctx, nil)
				if err != nil {
					return textResult("error: " + err.Error()), nil, nil
				}
				var uris []string
				for _, r := range res.Roots {
					uris = append(uris, r.Name+"="+r.URI)
				}
				return textResult(strings.Join(uris, " ")), nil, nil
			})
	})
	m := New(Config{Path: "test", Servers: []ServerConfig{sc}, Roots: roots}, Options{LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close() })
	return m
}

func callWhere(t *testing.T, m *Manager) string {
	t.Helper()
	res, err := m.Call(context.Background(), CallRequest{Server: "gosdk", Tool: "where", Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Text
}

// TestRootsListAnswered: the roots given (a duplicate once) are declared and answered
// as file: URIs (the SDK keeps them by URI) named by their last element; with none,
// roots/list is refused.
func TestRootsListAnswered(t *testing.T) {
	got := callWhere(t, rootsServer(t, []string{"/tmp/a b", "/srv/proj/", "/tmp/a b"}))
	if want := "proj=file:///srv/proj a b=file:///tmp/a%20b"; got != want {
		t.Errorf("roots %q, want %q", got, want)
	}
	if got := callWhere(t, rootsServer(t, nil)); !strings.Contains(got, "error:") || !strings.Contains(got, "method not found") {
		t.Errorf("without roots: %q", got)
	}
}

// TestConfigRoots: the config's top-level "roots" are read relative to the file; a
// malformed list is a problem at /roots, the servers still load.
func TestConfigRoots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	os.WriteFile(path, []byte(`{"roots": ["/abs", "rel/x"], "mcpServers": {"a": {"command": "true"}}}`), 0o600)
	cfg := Load(path, true, os.LookupEnv)
	if len(cfg.Problems) != 0 || len(cfg.Servers) != 1 || strings.Join(cfg.Roots, ",") != "/abs,"+filepath.Join(dir, "rel/x") {
		t.Fatalf("config %+v", cfg)
	}
	os.WriteFile(path, []byte(`{"roots": "/abs", "mcpServers": {"a": {"command": "true"}}}`), 0o600)
	cfg = Load(path, true, os.LookupEnv)
	if len(cfg.Problems) != 1 || cfg.Problems[0].Pointer != "/roots" || cfg.Roots != nil || len(cfg.Servers) != 1 {
		t.Fatalf("config %+v", cfg)
	}
}

// TestEverythingRoots: server-everything sees the roots followup declares (its
// get-roots-list tool exists only for a client that declares roots), and the log
// message it sends about them lands in its log with its level.
func TestEverythingRoots(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	dir := t.TempDir()
	m := New(Config{Path: "test", Roots: []string{dir}, Servers: []ServerConfig{{Name: "everything", Type: TypeStdio,
		Command: command, Args: args, Shown: "everything", Timeout: 20e9}}}, Options{LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close() })
	res := callEverything(t, m, "get-roots-list", `{}`)
	if !strings.Contains(res.Text, "(1 total)") || !strings.Contains(res.Text, "URI: file://"+dir) {
		t.Fatalf("get-roots-list: %q", res.Text)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(m.Status().Servers[0].Log)
		if strings.Contains(string(data), " info everything-server: Roots updated: 1 root") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log message in %q", data)
		}
	}
}
