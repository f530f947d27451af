package mcptest

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The helper's peers answer a go-sdk client over both transports.
func TestEverythingAnswersOverStdioAndHTTP(t *testing.T) {
	p := Find(t)
	command, args := p.EverythingStdio(t)
	transports := map[string]mcp.Transport{
		"stdio": &mcp.CommandTransport{Command: exec.Command(command, args...), TerminateDuration: 200 * time.Millisecond},
		"http":  &mcp.StreamableClientTransport{Endpoint: p.StartEverythingHTTP(t)},
	}
	for name, tr := range transports {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c := mcp.NewClient(&mcp.Implementation{Name: "followup-test", Version: "0"}, nil)
			cs, err := c.Connect(ctx, tr, nil)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("list tools: %v", err)
			}
			found := false
			for _, tool := range res.Tools {
				found = found || tool.Name == "echo"
			}
			if !found {
				t.Fatalf("no echo tool among %d tools", len(res.Tools))
			}
		})
	}
}
