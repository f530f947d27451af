package agent

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The demo's sub-agents (docs/behaviour.md): a message naming an offsite or
// asking to delegate starts two children, venue and travel, whose briefs
// make each ask one form; once both have ended, the parent sums them up.

// delegateTurn is the parent's turn that starts the two sub-agents.
func delegateTurn(text string, st *history) (Message, bool) {
	low := strings.ToLower(text)
	if !strings.Contains(low, "offsite") && !strings.Contains(low, "delegate") {
		return Message{}, false
	}
	id := st.nextCallID()
	call := func(name, brief string) ToolCall {
		args, _ := json.Marshal(map[string]string{"name": name, "brief": brief})
		return ToolCall{ID: id + "_" + name, Name: DelegateTool, Arguments: args}
	}
	return Message{
		Content: "I'll split this between two sub-agents: **venue** finds the place and **travel** plans the journey. " +
			"Each asks you its own question; answer them in any order.",
		ToolCalls: []ToolCall{
			call("venue", "Find a venue for the team: ask the user where and for how many people."),
			call("travel", "Arrange the team's travel: ask the user for the destination, dates and transport."),
		},
	}, true
}

// delegateSummary is the parent's reply once the results of its
// agent_delegate calls are all in.
func delegateSummary(h []Message) (Message, bool) {
	var lines []string
	for i := len(h) - 1; i >= 0 && h[i].Role == RoleTool; i-- {
		var r struct {
			Status, Name, Reply, Error string
		}
		if h[i].ToolName != DelegateTool || json.Unmarshal([]byte(h[i].Content), &r) != nil {
			continue
		}
		switch {
		case r.Status == "child_failed":
			lines = append(lines, fmt.Sprintf("- **%s** did not finish: %s", r.Name, r.Error))
		case strings.Contains(r.Reply, "without that detail"):
			lines = append(lines, fmt.Sprintf("- **%s**: its question was cancelled, so it went on without it.", r.Name))
		case r.Status == "child_done":
			lines = append(lines, fmt.Sprintf("- **%s**: %s", r.Name, r.Reply))
		default: // a refusal
			lines = append(lines, "- "+toolSummary(h[i]))
		}
	}
	if len(lines) == 0 {
		return Message{}, false
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return Message{Content: "Here is what the sub-agents found:\n" + strings.Join(lines, "\n")}, true
}
