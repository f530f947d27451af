package transcript

import (
	"strings"
	"testing"

	"followup/chat"
)

// A call whose approval is asked says so in its row, even in a run no
// process drives (the approval waits for the user, not for a driver).
func TestRowOfACallAwaitingApproval(t *testing.T) {
	v := chat.ToolStepView{RunID: "run_1", ToolCallID: "c1", Server: "everything", Tool: "echo", State: chat.StepAwaitingApproval}
	got := rowState(v, Data{Look: Look{Idle: map[string]bool{"run_1": true}}})
	if !strings.Contains(got, "waiting for your approval") {
		t.Fatalf("row state = %q", got)
	}
}

// A running call's row shows its server's latest progress, sanitised, and
// its version changes with it (the row is drawn again).
func TestRowOfARunningCallShowsProgress(t *testing.T) {
	v := chat.ToolStepView{RunID: "run_1", ToolCallID: "c1", Server: "everything", Tool: "work", State: "started"}
	m := chat.Message{RunID: "run_1", ToolCallID: "c1"}
	d := Data{Steps: map[string]chat.ToolStepView{StepID("run_1", "c1"): v}, Progress: map[string]string{StepID("run_1", "c1"): "3/10 · copying\x1b[2J"}}
	before := rowVersion(m, d)
	if got := rowState(v, d); !strings.Contains(got, "running · 3/10 · copying") || strings.Contains(got, "\x1b[2J") {
		t.Fatalf("row state = %q", got)
	}
	d.Progress[StepID("run_1", "c1")] = "4/10"
	if rowVersion(m, d) == before {
		t.Fatal("the row's version did not change with its progress")
	}
}
