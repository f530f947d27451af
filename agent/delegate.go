package agent

import (
	"context"
	"encoding/json"
)

// DelegateTool starts a sub-agent (docs/behaviour.md): a child run of its
// own, whose final reply becomes the call's result.
const DelegateTool = "agent_delegate"

// Delegator is the host's half of agent_delegate. Delegate starts the
// call's child run (once, whatever crashes come between) and returns the
// call's result: child_done or child_failed once the child has ended, or a
// refusal in words at once. wait says the child still runs: the call stays
// open and the run waits for its children.
type Delegator interface {
	Delegate(ctx context.Context, cc CallContext, call ToolCall) (result json.RawMessage, wait bool, err error)
}

var delegateSpec = ToolSpec{
	Name: DelegateTool,
	Description: "Hand part of the task to a sub-agent: a child task with its own history that works on the brief " +
		"and may ask the user its own questions (each form names it as the asker). Several calls in one turn run " +
		"at the same time (at most 4 children at once; a sub-agent may delegate one level further). The call " +
		`returns when the child ends: {"status": "child_done", "name", "runId", "reply"} or ` +
		`{"status": "child_failed", "name", "runId", "error"}; decide what to do with a failure.`,
	Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"name":{"type":"string","pattern":"^[a-z][a-z0-9-]{0,31}$","description":"short name of the sub-agent, unique among this task's sub-agents, e.g. venue"},` +
		`"brief":{"type":"string","description":"everything the sub-agent needs to know: its first message"},` +
		`"tools":{"type":"array","items":{"type":"string"},"description":"names of the tools it may use (default: all of yours; the input tools always)"}},` +
		`"required":["name","brief"]}`),
}

// offers reports whether the run offers the tool name to its model: every
// tool, or those of Only and the input tools.
func (r *Runner) offers(name string) bool {
	return r.Only == nil || r.Only[name] || reserved(name)
}
