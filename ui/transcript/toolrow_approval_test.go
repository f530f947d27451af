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
