package conformanceclient

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"followup/agent/mcp/mcptest"
)

// TestConformanceClientScenarios runs the conformance runner's client scenarios against
// this test binary (TestMain): 0.1.13 on the machine's Node, 0.2.0-alpha.12 (the 2026-07-28 protocol,
// input_required) on the Node 22 installed from npm.
func TestConformanceClientScenarios(t *testing.T) {
	peers := mcptest.Find(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct{ node, runner, scenario string }{
		{peers.Node(t), peers.ConformanceScript(), "initialize"},
		{peers.Node(t), peers.ConformanceScript(), "tools_call"},
		{peers.Node(t), peers.ConformanceScript(), "elicitation-sep1034-client-defaults"},
		{peers.Node22(), peers.ConformanceNextScript(), "sep-2322-client-request-state"},
		{peers.Node22(), peers.ConformanceNextScript(), "tools_call"},
		{peers.Node22(), peers.ConformanceNextScript(), "request-metadata"},
	}
	for _, r := range runs {
		name := r.scenario
		if r.runner == peers.ConformanceNextScript() {
			name += "@0.2.0-alpha.12"
		}
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(r.node, r.runner, "client", "--command", bin, "--scenario", r.scenario, "--timeout", "60000")
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			text := string(out)
			if err != nil || !strings.Contains(text, "OVERALL: PASSED") || !strings.Contains(text, " 0 failed, 0 warnings") {
				t.Fatalf("conformance %s: %v\n%s", r.scenario, err, text)
			}
		})
	}
}
