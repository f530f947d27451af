package agent

import (
	"context"
	"encoding/json"
	"time"

	"followup/agent/mcp"
)

// Step tools are the tools with effects outside followup's database: the
// MCP servers' tools. Each call is a durable step. For every open call the
// runner asks the host what to do (the host holds the policy: approvals,
// what a crash left unknown, the questions a server asked) and obeys:
// make the call, retry an input_required call with the user's replies,
// leave the call open while the run waits for the user, or record a
// result without calling. The host records the call before it is made and
// what it came to after, so a drive that starts after a crash at any
// instant finds where the dead one stopped.

// StepAction is what the runner does with an open call of a step tool.
type StepAction int

const (
	// StepCall makes the call (Request).
	StepCall StepAction = iota
	// StepRetry completes an input_required call: Request, Input and
	// Replies, sent with the exact requestState the server gave.
	StepRetry
	// StepWait leaves the call open: the run waits for the user (an
	// approval, a server's question).
	StepWait
	// StepResult records Result for the model without calling.
	StepResult
)

// StepPlan is the host's decision about one open call.
type StepPlan struct {
	Action  StepAction
	Request mcp.CallRequest
	Input   *mcp.InputRequired
	Replies map[string]mcp.Reply
	Result  json.RawMessage
	// Recorded says the host already wrote Result to the run's history,
	// with the step's outcome in one transaction: the runner does not
	// record it again.
	Recorded bool
}

// StepHost is the host's half of durable steps.
type StepHost interface {
	// Plan decides what to do with an open call. tool is the connected
	// tool of that name, nil when none is (the host may still know the
	// call from its record). A StepCall or StepRetry plan is recorded
	// before Plan returns.
	Plan(ctx context.Context, cc CallContext, call ToolCall, tool *mcp.Tool) (StepPlan, error)
	// Finish records what a call came to (err: it could not be made) and
	// decides what follows: a result for the model, a wait for the user,
	// or another call.
	Finish(ctx context.Context, cc CallContext, call ToolCall, res mcp.Result, err error) (StepPlan, error)
}

// stopGrace is how long a call may go on after its drive was stopped, so a
// server's question closed by the stop is answered (cancel) and the
// server's last word is recorded; a stop still ends the call within a
// second (docs/behaviour.md).
const stopGrace = 900 * time.Millisecond

// mcpSpecs lists the connected servers' tools for the model. It first
// waits for the servers to finish connecting (the CLI starts them here,
// when a run first needs tools), unless the provider is the offline demo
// agent: it never reads the tool list, so only a call waits for a server.
func (r *Runner) mcpSpecs(ctx context.Context) []ToolSpec {
	if r.MCP == nil || !r.MCP.Configured() {
		return nil
	}
	if _, demo := r.Provider.(Offline); !demo {
		r.MCP.Wait(ctx)
	}
	var out []ToolSpec
	for _, t := range r.MCP.Tools() {
		desc := t.Description
		if t.Title != "" && desc == "" {
			desc = t.Title
		}
		out = append(out, ToolSpec{Name: t.Name, Description: desc, Parameters: t.InputSchema})
	}
	return out
}

// lookupStep finds the connected tool a call names, waiting for the
// servers to connect when it is not (yet) there.
func (r *Runner) lookupStep(ctx context.Context, name string) *mcp.Tool {
	if r.MCP == nil {
		return nil
	}
	if t, ok := r.MCP.Lookup(name); ok {
		return &t
	}
	if !r.MCP.Configured() {
		return nil
	}
	r.MCP.Wait(ctx)
	if t, ok := r.MCP.Lookup(name); ok {
		return &t
	}
	return nil
}

// runStep takes one open call of a step tool through the host's plans
// until it has a result for the model or waits.
func (r *Runner) runStep(ctx context.Context, cc CallContext, call ToolCall) (StepPlan, error) {
	plan, err := r.Steps.Plan(ctx, cc, call, r.lookupStep(ctx, call.Name))
	for err == nil {
		var res mcp.Result
		var callErr error
		switch plan.Action {
		case StepWait, StepResult:
			return plan, nil
		case StepCall, StepRetry:
			if r.MCP == nil {
				callErr = errNoMCP
				break
			}
			res, callErr = r.callStep(ctx, plan)
		}
		r.checkpoint("tool-called")
		plan, err = r.Steps.Finish(ctx, cc, call, res, callErr)
	}
	return plan, err
}

// callStep makes the call of a plan. The call outlives a stop of its drive
// by at most stopGrace.
func (r *Runner) callStep(ctx context.Context, plan StepPlan) (mcp.Result, error) {
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(stopGrace, cancel)
		context.AfterFunc(cctx, func() { t.Stop() })
	})
	defer stop()
	if plan.Action == StepRetry && plan.Input != nil {
		return r.MCP.Retry(cctx, plan.Request, *plan.Input, plan.Replies)
	}
	return r.MCP.Call(cctx, plan.Request)
}

type stepError string

func (e stepError) Error() string { return string(e) }

const errNoMCP = stepError("no MCP servers are configured")
