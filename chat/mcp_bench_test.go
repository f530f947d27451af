package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// BenchmarkToolCallOverhead compares one MCP tool call made as followup
// makes it — the step recorded started (Plan), the call through the
// manager, its outcome recorded (Finish) and its result written to the
// model's history — with the bare SDK call to the same loopback server,
// interleaved (docs/performance.md: followup's own cost ≤ 2 ms per call). It
// reports each one's median and the difference, and the median of one
// durable commit in the same loop (the step's floor is two of them: the
// call recorded before it is made, its outcome and result after).
func BenchmarkToolCallOverhead(b *testing.B) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "gosdk", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer ts.Close()
	cfg := mcp.Config{Path: "bench", Servers: []mcp.ServerConfig{{Name: "gosdk", Type: mcp.TypeHTTP, URL: ts.URL, Shown: ts.URL,
		Timeout: 10 * time.Second, AutoApprove: mcp.AutoApprove{All: true}}}}
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(b.TempDir(), "f.db"), MCP: MCPOptions{Config: &cfg, LogDir: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.WaitMCP(ctx); err != nil {
		b.Fatal(err)
	}
	sent, err := s.Send(ctx, "", "benchmark", "")
	if err != nil {
		b.Fatal(err)
	}
	tool, ok := s.mcp.m.Lookup(mcp.ToolName("gosdk", "echo"))
	if !ok {
		b.Fatal("no tool")
	}
	bare, err := sdk.NewClient(&sdk.Implementation{Name: "bare", Version: "1"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{}, MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}}).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	args := json.RawMessage(`{"message":"hello"}`)
	host := runHost{s}
	var bareNs, hostNs, commitNs, planNs, callNs, finishNs []float64
	n := 0
	for b.Loop() {
		t0 := time.Now()
		if _, err := bare.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: args}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		n++
		call := agent.ToolCall{ID: fmt.Sprintf("call_%d", n), Name: tool.Name, Arguments: args}
		cc := agent.CallContext{ChatID: sent.ChatID, RunID: sent.RunID, ToolCallID: call.ID}
		tp := time.Now()
		plan, err := s.mcp.Plan(ctx, cc, call, &tool)
		planNs = append(planNs, float64(time.Since(tp)))
		if err != nil || plan.Action != agent.StepCall {
			b.Fatalf("plan %+v, %v", plan, err)
		}
		tc := time.Now()
		res, err := s.mcp.m.Call(ctx, plan.Request)
		tf := time.Now()
		callNs = append(callNs, float64(tf.Sub(tc)))
		plan, err = s.mcp.Finish(ctx, cc, call, res, err)
		finishNs = append(finishNs, float64(time.Since(tf)))
		if err != nil || plan.Action != agent.StepResult {
			b.Fatalf("finish %+v, %v", plan, err)
		}
		if !plan.Recorded { // as the runner does
			if err := host.RecordToolResult(ctx, sent.RunID, call, plan.Result); err != nil {
				b.Fatal(err)
			}
		}
		t2 := time.Now()
		// The floor of followup's own work: one durable commit, as each of
		// the step's two records is.
		if err := s.db.Write(ctx, func(tx store.Handle) error {
			_, err := tx.ExecContext(ctx, `UPDATE runs SET updated_at = updated_at WHERE id = ?`, sent.RunID)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		bareNs = append(bareNs, float64(t1.Sub(t0)))
		hostNs = append(hostNs, float64(t2.Sub(t1)))
		commitNs = append(commitNs, float64(time.Since(t2)))
	}
	b.ReportMetric(medianOf(bareNs), "bare-ns/call")
	b.ReportMetric(medianOf(hostNs), "followup-ns/call")
	b.ReportMetric(medianOf(hostNs)-medianOf(bareNs), "overhead-ns/call")
	b.ReportMetric(medianOf(commitNs), "commit-ns")
	b.ReportMetric(medianOf(planNs), "plan-ns")
	b.ReportMetric(medianOf(callNs), "call-ns")
	b.ReportMetric(medianOf(finishNs), "finish-ns")
	if v, _ := s.GetRun(ctx, sent.RunID); v.State != store.RunRunning {
		b.Fatalf("run %s", v.State)
	}
}

func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	return c[len(c)/2]
}
