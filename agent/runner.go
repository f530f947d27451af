package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"followup/agent/mcp"
)

// Host is what the run loop needs from the chat host. Each method is one
// durable step: it is written to the store before the loop acts on it.
type Host interface {
	// Begin checks the run can be driven and returns its model history.
	Begin(ctx context.Context, runID string) (Turn, error)
	// Deliver hands the run's pending answers and cancellations to its
	// history, each exactly once, and reports how many it delivered. A
	// delivery moves a waiting run back to running.
	Deliver(ctx context.Context, runID string) (int, error)
	// RecordTurn appends the model's turn to the history, with the Seen
	// cursor of the Turn the model read. It fails with ErrRunEnded when the
	// run was stopped meanwhile.
	RecordTurn(ctx context.Context, runID string, msg Message, seen int64) error
	// RecordToolResult appends a tool's result to the history.
	RecordToolResult(ctx context.Context, runID string, call ToolCall, result json.RawMessage) error
	// Settle decides, atomically with the deliveries, whether the run waits
	// for input or has finished. It returns the new state, or "running"
	// when there is something new to give the model.
	Settle(ctx context.Context, runID string, final bool) (string, error)
	// Fail ends the run with the provider's or the policy's message.
	Fail(ctx context.Context, runID string, reason string) error
}

// Turn is where a run stands when driving begins.
type Turn struct {
	// Seen is the host's cursor of the history read (its newest message);
	// it comes back with the turn the model answered from it.
	Seen int64
	// Unread reports user input (a message, an answer) newer than what the
	// model's last turn read: the model must be called again.
	Unread     bool
	ChatID     string
	State      string
	History    []Message
	ModelCalls int
}

// ErrRunEnded means the run stopped or finished while it was being driven.
var ErrRunEnded = errors.New("the run has ended")

// Events receives what the UI shows while a run is driven.
type Events interface {
	// Streaming reports assistant text as it arrives; reset true means
	// discard what was streamed so far (a retried call starts over).
	Streaming(runID, delta string, reset bool)
	// Thinking reports that a model call started or ended.
	Thinking(runID string, on bool)
}

// Runner drives runs: the model loop.
type Runner struct {
	Provider      Provider
	Tools         *Registry
	Host          Host
	System        string
	Model         string
	MaxModelCalls int
	Events        Events
	// MCP is the MCP servers whose tools the model may call, and Steps
	// the host's half of those calls (steps.go); both nil without servers.
	MCP   *mcp.Manager
	Steps StepHost
	// Delegate starts sub-agents (delegate.go); nil offers no agent_delegate.
	// Only, when set, names the tools a sub-agent may use besides the
	// input tools.
	Delegate Delegator
	Only     map[string]bool
	// Checkpoint, when set, is called with a step name where an effect has
	// happened but is not recorded yet ("model-replied", "tool-ran"): the
	// durability tests crash the process there.
	Checkpoint func(step string)
}

// Drive runs the loop until the run waits for input or ends, and returns
// its state. Every decision is taken from the recorded history, never from
// memory, so a drive that starts after a crash at any instant continues
// exactly where the dead one stopped.
func (r *Runner) Drive(ctx context.Context, runID string) (string, error) {
	settledAt := -1 // history length when the run last settled after its tools
	for {
		if _, err := r.Host.Deliver(ctx, runID); err != nil {
			return "", err
		}
		turn, err := r.Host.Begin(ctx, runID)
		if err != nil {
			return "", err
		}
		if turn.State != "running" {
			// Waiting with nothing new delivered, or ended: nothing to do.
			return turn.State, nil
		}
		last := lastMessage(turn.History)
		if open := openCalls(turn.History); len(open) > 0 {
			// Tool calls without results: the normal next step, and also
			// what a crash after the turn or after some results leaves.
			waits, err := r.runTools(ctx, turn, runID, open)
			if err != nil {
				return "", err
			}
			if waits {
				// A call waits for the user: the host decides, with what
				// arrived meanwhile, whether the run now waits.
				state, err := r.Host.Settle(ctx, runID, false)
				if err != nil || state != "running" {
					return state, err
				}
			}
			continue
		}
		switch {
		case turn.Unread:
			// Something arrived while the model answered: call it again.
		case last != nil && last.Role == RoleAssistant:
			state, err := r.Host.Settle(ctx, runID, true)
			if err != nil || state != "running" {
				return state, err
			}
			continue
		case last != nil && last.Role == RoleTool && settledAt != len(turn.History):
			// The tools have run: the run may now wait for an answer. This
			// is decided from the record, so a crash between the last tool
			// result and this step cannot cost a model call.
			state, err := r.Host.Settle(ctx, runID, false)
			if err != nil || state != "running" {
				return state, err
			}
			settledAt = len(turn.History)
			continue // deliver what arrived meanwhile before calling the model
		}
		if r.MaxModelCalls > 0 && turn.ModelCalls >= r.MaxModelCalls {
			msg := fmt.Sprintf("LIMIT_EXCEEDED: the run reached its cap of %d model calls", r.MaxModelCalls)
			return "failed", r.Host.Fail(ctx, runID, msg)
		}
		msg, err := r.call(ctx, runID, turn)
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "failed", r.Host.Fail(ctx, runID, "model call failed: "+err.Error())
		}
		r.checkpoint("model-replied")
		if err := r.Host.RecordTurn(ctx, runID, msg, turn.Seen); err != nil {
			return "", err
		}
	}
}

func (r *Runner) checkpoint(step string) {
	if r.Checkpoint != nil {
		r.Checkpoint(step)
	}
}

func (r *Runner) call(ctx context.Context, runID string, turn Turn) (Message, error) {
	req := Request{Model: r.Model, System: r.System, Messages: turn.History}
	specs := append(r.Tools.Specs(), r.mcpSpecs(ctx)...)
	if r.Delegate != nil {
		specs = append(specs, delegateSpec)
	}
	for _, t := range specs {
		if r.offers(t.Name) {
			req.Tools = append(req.Tools, t)
		}
	}
	if r.Events != nil {
		r.Events.Thinking(runID, true)
		defer r.Events.Thinking(runID, false)
		req.OnText = func(delta string) { r.Events.Streaming(runID, delta, false) }
		// With a reset the UI can discard a broken stream, so WithRetry may
		// retry a call that already streamed text.
		req.OnReset = func() { r.Events.Streaming(runID, "", true) }
	}
	resp, err := r.Provider.Complete(ctx, req)
	if r.Events != nil {
		r.Events.Streaming(runID, "", true)
	}
	if err != nil {
		return Message{}, err
	}
	resp.Message.Role = RoleAssistant
	return resp.Message, nil
}

// runTools runs the given tool calls and records each result. A step
// tool's call that waits for the user is left open (waits), and the other
// calls go on, so every approval of one turn is asked at once.
func (r *Runner) runTools(ctx context.Context, turn Turn, runID string, calls []ToolCall) (waits bool, err error) {
	for _, call := range calls {
		cc := CallContext{ChatID: turn.ChatID, RunID: runID, ToolCallID: call.ID}
		var result json.RawMessage
		if !r.offers(call.Name) {
			result = unknownTool(call.Name)
		} else if call.Name == DelegateTool && r.Delegate != nil {
			res, wait, err := r.Delegate.Delegate(ctx, cc, call)
			if err != nil {
				return waits, err
			}
			if wait {
				waits = true
				continue
			}
			result = res
		} else if t, ok := r.Tools.Get(call.Name); ok {
			result = t.Run(ctx, cc, call.Arguments)
		} else if r.Steps != nil && isStepTool(call.Name) {
			plan, err := r.runStep(ctx, cc, call)
			if err != nil {
				return waits, err
			}
			if ctx.Err() != nil {
				return waits, ctx.Err() // stopped: the step keeps its record, the history nothing more
			}
			if plan.Action == StepWait {
				waits = true
				continue
			}
			if plan.Recorded {
				continue
			}
			result = plan.Result
		} else {
			result = unknownTool(call.Name)
		}
		r.checkpoint("tool-ran")
		if err := r.Host.RecordToolResult(ctx, runID, call, result); err != nil {
			return waits, err
		}
	}
	return waits, nil
}

// isStepTool reports whether name is an MCP tool's (mcp__SERVER__TOOL):
// only those are steps; any other name the run does not offer is unknown.
func isStepTool(name string) bool { return strings.HasPrefix(name, "mcp__") }

// openCalls returns the tool calls of the last assistant turn that have no
// recorded result. Only results after that turn count: providers may reuse
// call ids from one turn to the next.
func openCalls(h []Message) []ToolCall {
	i := len(h) - 1
	for i >= 0 && h[i].Role != RoleAssistant {
		i--
	}
	if i < 0 {
		return nil
	}
	done := map[string]bool{}
	for _, m := range h[i+1:] {
		if m.Role == RoleTool {
			done[m.ToolCallID] = true
		}
	}
	var open []ToolCall
	for _, c := range h[i].ToolCalls {
		if !done[c.ID] {
			open = append(open, c)
		}
	}
	return open
}

func lastMessage(h []Message) *Message {
	if len(h) == 0 {
		return nil
	}
	return &h[len(h)-1]
}
