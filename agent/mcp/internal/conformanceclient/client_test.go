// Package conformanceclient runs the MCP conformance suite's client scenarios on
// followup's own client package: `conformance client --command <the test binary>
// --scenario NAME` starts a scenario server and runs the test binary with its URL as the
// last argument and the scenario in MCP_CONFORMANCE_SCENARIO, which makes it the client.
//
// The server is configured the way a user would (an mcpServers entry of type http) and
// reached only through agent/mcp: Manager, Call, Retry and an Elicitor that answers like
// a user confirming a form prefilled from the schema. An input_required result is stored
// as JSON and read back before it is retried, as chat will do across processes.
package conformanceclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"followup/agent/mcp"
)

// TestMain is the client when the conformance runner started this binary, and the tests
// otherwise.
func TestMain(m *testing.M) {
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if scenario == "" {
		os.Exit(m.Run())
	}
	if err := run(scenario, os.Args[len(os.Args)-1]); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceclient:", err)
		os.Exit(1)
	}
}

// calls are the tool calls each scenario expects; a scenario not listed only connects
// and lists tools.
var calls = map[string][]struct {
	tool, args string
}{
	"tools_call":                          {{"add_numbers", `{"a":5,"b":3}`}},
	"elicitation-sep1034-client-defaults": {{"test_client_elicitation_defaults", `{}`}},
	"sep-2322-client-request-state": {
		{"test_mrtr_echo_state", `{}`}, {"test_mrtr_no_state", `{}`},
		{"test_mrtr_unrelated", `{}`}, {"test_mrtr_no_result_type", `{}`},
	},
}

func run(scenario, url string) error {
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"conformance": map[string]any{"type": "http", "url": url, "timeout": 20}}})
	servers, problems := mcp.Parse("conformance.json", doc, os.LookupEnv)
	if len(problems) > 0 {
		return problems[0]
	}
	logDir, err := os.MkdirTemp("", "followup-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(logDir)
	m := mcp.New(mcp.Config{Path: "conformance.json", Servers: servers},
		mcp.Options{Name: "followup-conformance", Version: "1", Elicitor: confirmer{}, LogDir: logDir})
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		return err
	}
	st := m.Status().Servers[0]
	if st.State != mcp.StateConnected {
		return fmt.Errorf("%s: %s", st.State, st.Reason)
	}
	fmt.Fprintf(os.Stderr, "connected on %s with %d tools\n", st.Protocol, len(st.Tools))
	for _, c := range calls[scenario] {
		text, err := call(ctx, m, mcp.CallRequest{Server: "conformance", Tool: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			return fmt.Errorf("%s: %w", c.tool, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %s\n", c.tool, text)
	}
	return nil
}

// call makes a call through to its end, answering input_required rounds.
func call(ctx context.Context, m *mcp.Manager, req mcp.CallRequest) (string, error) {
	res, err := m.Call(ctx, req)
	for round := 0; err == nil && res.InputRequired != nil; round++ {
		if round == 10 {
			return "", fmt.Errorf("still asking after %d rounds", round)
		}
		stored, err := json.Marshal(res.InputRequired)
		if err != nil {
			return "", err
		}
		var ir mcp.InputRequired
		if err := json.Unmarshal(stored, &ir); err != nil {
			return "", err
		}
		replies := map[string]mcp.Reply{}
		for id, e := range ir.Requests {
			if replies[id], err = (confirmer{}).Elicit(ctx, e); err != nil {
				return "", err
			}
		}
		res, err = m.Retry(ctx, req, ir, replies)
	}
	if err != nil {
		return "", err
	}
	if len(res.URLRequired) > 0 {
		return "", fmt.Errorf("the server asks to visit %s", res.URLRequired[0].URL)
	}
	return res.Text, nil
}
