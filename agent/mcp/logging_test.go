package mcp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServerLogMessages: followup sets the level of a server that logs (info by default,
// the entry's logLevel otherwise), and writes each message it gets, with its level, to
// the server's log; Status carries the last lines.
func TestServerLogMessages(t *testing.T) {
	for _, tc := range []struct{ level, want, not string }{{"", "info db: opened", "debug"}, {"error", "error {\"code\":7}", "opened"}} {
		sc, _ := sdkServer(t, false, func(srv *sdk.Server) {
			sdk.AddTool(srv, &sdk.Tool{Name: "work", InputSchema: map[string]any{"type": "object"}},
				func(ctx context.Context, req *sdk.CallToolRequest, _ any) (*sdk.CallToolResult, any, error) {
					req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "debug", Data: "debug detail"})
					req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "db", Data: "opened"})
					req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "error", Data: map[string]int{"code": 7}})
					return textResult("done"), nil, nil
				})
		})
		sc.LogLevel = tc.level
		m := New(Config{Path: "test", Servers: []ServerConfig{sc}}, Options{LogDir: t.TempDir()})
		if _, err := m.Call(context.Background(), CallRequest{Server: "gosdk", Tool: "work", Arguments: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		var st ServerStatus
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if st = m.Status().Servers[0]; strings.Contains(strings.Join(st.LogTail, "\n"), `error {"code":7}`) {
				break
			}
		}
		m.Close()
		data, _ := os.ReadFile(st.Log)
		tail := strings.Join(st.LogTail, "\n")
		if !strings.Contains(string(data), tc.want) || strings.Contains(string(data), tc.not) || !strings.Contains(tail, tc.want) {
			t.Errorf("level %q: log %q, tail %q", tc.level, data, tail)
		}
		if len(st.LogTail) > tailLines {
			t.Errorf("tail of %d lines", len(st.LogTail))
		}
	}
}

// TestLogLevelChecked: an entry's logLevel must be one of the protocol's levels.
func TestLogLevelChecked(t *testing.T) {
	_, problems := Parse("f", []byte(`{"mcpServers": {"a": {"command": "x", "logLevel": "loud"}}}`), os.LookupEnv)
	if len(problems) != 1 || problems[0].Pointer != "/mcpServers/a/logLevel" {
		t.Fatalf("problems %v", problems)
	}
}
