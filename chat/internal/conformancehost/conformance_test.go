package conformancehost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"followup/agent/mcp/mcptest"
)

// TestConformanceThroughTheHost runs the conformance runner's client
// scenarios against followup's whole host (chat.Service, the demo agent,
// durable steps, questions answered through Answer): 0.1.13 on the
// machine's Node, 0.2.0-alpha.12 (2026-07-28, input_required) on Node 22,
// the latter also with the process driving each call killed while the
// call waits for input.
func TestConformanceThroughTheHost(t *testing.T) {
	peers := mcptest.Find(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		node, runner, scenario string
		crash                  bool
	}{
		{peers.Node(t), peers.ConformanceScript(), "initialize", false},
		{peers.Node(t), peers.ConformanceScript(), "tools_call", false},
		{peers.Node(t), peers.ConformanceScript(), "elicitation-sep1034-client-defaults", false},
		{peers.Node22(), peers.ConformanceNextScript(), "sep-2322-client-request-state", false},
		{peers.Node22(), peers.ConformanceNextScript(), "sep-2322-client-request-state", true},
		{peers.Node22(), peers.ConformanceNextScript(), "tools_call", false},
	}
	for _, r := range runs {
		name := r.scenario
		if r.runner == peers.ConformanceNextScript() {
			name += "@0.2.0-alpha.12"
		}
		if r.crash {
			name += "/killed-while-waiting"
		}
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(r.node, r.runner, "client", "--command", bin, "--scenario", r.scenario, "--timeout", "60000")
			cmd.Dir = t.TempDir()
			cmd.Env = os.Environ()
			kills := filepath.Join(t.TempDir(), "kills")
			if r.crash {
				cmd.Env = append(cmd.Env, envCrash+"=1", envKills+"="+kills)
			}
			out, err := cmd.CombinedOutput()
			text := string(out)
			if err != nil || !strings.Contains(text, "OVERALL: PASSED") || !strings.Contains(text, " 0 failed, 0 warnings") {
				t.Fatalf("conformance %s: %v\n%s", r.scenario, err, text)
			}
			if r.crash {
				noted, _ := os.ReadFile(kills)
				if n := strings.Count(string(noted), "killed the process driving"); n < 2 {
					t.Fatalf("%d calls were killed while they waited for input:\n%s", n, noted)
				}
				t.Logf("%s", noted)
			}
		})
	}
}
