package mcpserve

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/chat"
)

// followup's own cost per tool call (docs/performance.md: ≤ 2 ms over the bare SDK
// call on loopback): the same client calls a bare go-sdk tool that returns
// a constant, and followup's input_read_answer and input_request on a
// real database. Compare side by side in one run:
//
//	go test ./ui/mcpserve -run '^$' -bench ToolCall -count 6

func benchClient(b *testing.B, srv *mcp.Server) *mcp.ClientSession {
	b.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func benchCall(b *testing.B, cs *mcp.ClientSession, name string, args func(i int) any) {
	b.Helper()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args(i)})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", name, err, res)
		}
	}
}

func BenchmarkToolCallBare(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return toolResult(json.RawMessage(`{"ok":true,"requestId":"rq_0123456789abcdef","state":"answered"}`)), nil
		})
	benchCall(b, benchClient(b, srv), "echo", func(int) any { return map[string]any{"requestId": "rq_0123456789abcdef"} })
}

// benchServer is followup's server on a fresh database, and one request
// its session asked and the user answered.
func benchServer(b *testing.B) (*mcp.ClientSession, string) {
	b.Helper()
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: filepath.Join(b.TempDir(), "bench.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	s := newServer(ChatInbox(svc), "stdio", Options{})
	cs := benchClient(b, s.mcp)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_request", Arguments: map[string]any{
		"requestKey": "bench", "source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "T",
			"fields": []any{map[string]any{"name": "x", "type": "text"}}}}}})
	if err != nil || res.IsError {
		b.Fatalf("input_request: %v %v", err, res)
	}
	var out struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
	if _, err := svc.Answer(context.Background(), chat.AnswerInput{RequestID: out.RequestID, Values: map[string]any{"x": "y"}}); err != nil {
		b.Fatal(err)
	}
	return cs, out.RequestID
}

func BenchmarkToolCallReadAnswer(b *testing.B) {
	cs, id := benchServer(b)
	benchCall(b, cs, "input_read_answer", func(int) any { return map[string]any{"requestId": id} })
}

func BenchmarkToolCallRequest(b *testing.B) {
	cs, _ := benchServer(b)
	// A retry of the same request: validated and answered from the store,
	// without growing the session's questions.
	args := map[string]any{"requestKey": "bench", "source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "T",
		"fields": []any{map[string]any{"name": "x", "type": "text"}}}}}
	benchCall(b, cs, "input_request", func(int) any { return args })
}
