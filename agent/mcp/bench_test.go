package mcp

import (
	"context"
	"encoding/json"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkCallOverhead compares a call through the Manager with the bare SDK call to the
// same loopback server (docs/performance.md: followup's own cost ≤ 2 ms per call), the two calls
// interleaved; it reports each one's median and the difference.
func BenchmarkCallOverhead(b *testing.B) {
	sc, _ := sdkServer(b, false, func(s *sdk.Server) {
		s.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
			func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return textResult(string(req.Params.Arguments)), nil
			})
	})
	ctx := context.Background()
	m := New(Config{Servers: []ServerConfig{sc}}, Options{LogDir: b.TempDir()})
	defer m.Close()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := m.Wait(wctx); err != nil {
		b.Fatal(err)
	}
	// The same client options as the Manager, so only followup's own work differs.
	bare, err := sdk.NewClient(&sdk.Implementation{Name: "bare", Version: "1"}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{}, MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}}).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: sc.URL}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	args := json.RawMessage(`{"message":"hello"}`)
	// Interleaved, so that the noise of a shared machine falls on both alike.
	var bareNs, managerNs []float64
	for b.Loop() {
		t0 := time.Now()
		if _, err := bare.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: args}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := m.Call(ctx, CallRequest{Server: "gosdk", Tool: "echo", Arguments: args}); err != nil {
			b.Fatal(err)
		}
		bareNs = append(bareNs, float64(t1.Sub(t0)))
		managerNs = append(managerNs, float64(time.Since(t1)))
	}
	b.ReportMetric(median(bareNs), "bare-ns/call")
	b.ReportMetric(median(managerNs), "manager-ns/call")
	b.ReportMetric(median(managerNs)-median(bareNs), "overhead-ns/call")
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
