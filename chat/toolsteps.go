package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// Durable tool steps (docs/mcp.md "Tool calls"). Each call of an MCP tool
// has one record, keyed by its run and the model's call id, re-entered on
// every drive: Plan reads it (and the call's approval) and says what the
// runner does next; Finish records what the call came to. The call is
// recorded started before it is made, so a crash in between is seen: a
// read-only or idempotent tool is called again, any other is never re-run
// silently — the model is told tool_interrupted and decides.

// Crash steps of an MCP tool call (see CrashAt).
const (
	CrashToolStarted  = "tool-started"  // the call is recorded started and not made yet
	CrashToolCalled   = "tool-called"   // the server answered; nothing of it is recorded yet
	CrashToolFinished = "tool-finished" // the step's outcome is committed, the model's history not yet
)

// Outcomes of a done step: what the model was told.
const (
	OutcomeOK          = "ok"          // the tool's result
	OutcomeToolError   = "tool_error"  // the tool's result, flagged isError
	OutcomeDenied      = "denied"      // the user denied the call
	OutcomeInterrupted = "interrupted" // the outcome is unknown (a crash, a question given up)
	OutcomeFailed      = "failed"      // the call could not be made
	OutcomeDeclined    = "declined"    // the user declined what the server needed first
)

// RoleToolStep is the transcript row of an MCP tool call (its ToolCallID
// names the step; ToolSteps has the rest).
const RoleToolStep = "tool_step"

var _ agent.StepHost = (*mcpHost)(nil)

// Plan is the runner's question about one open call (agent.StepHost).
func (h *mcpHost) Plan(ctx context.Context, cc agent.CallContext, call agent.ToolCall, tool *mcp.Tool) (agent.StepPlan, error) {
	s := h.s
	var plan agent.StepPlan
	err := s.write(ctx, func(tx *txn) error {
		plan = agent.StepPlan{}
		run, err := s.store.GetRun(ctx, tx, cc.RunID)
		if err != nil {
			return err
		}
		if run.State != store.RunRunning && run.State != store.RunWaitingInput {
			return agent.ErrRunEnded
		}
		step, err := s.store.GetToolStep(ctx, tx, cc.RunID, cc.ToolCallID)
		switch {
		case errors.Is(err, store.ErrNotFound):
			plan, err = h.planNew(ctx, tx, run, call, tool)
		case err == nil:
			plan, err = h.planRecorded(ctx, tx, step)
		}
		if err != nil {
			return err
		}
		return h.recordResult(ctx, tx, run, call, &plan)
	})
	if err != nil {
		return plan, err
	}
	if plan.Action == agent.StepCall || plan.Action == agent.StepRetry {
		s.checkpoint(CrashToolStarted)
	}
	return plan, nil
}

// planNew decides about a call met for the first time: ask the user, or
// record it started and make it.
func (h *mcpHost) planNew(ctx context.Context, tx *txn, run store.Run, call agent.ToolCall, tool *mcp.Tool) (agent.StepPlan, error) {
	s := h.s
	args := callArguments(call.Arguments)
	ap, err := s.store.ApprovalFor(ctx, tx, run.ID, call.ID)
	asked := err == nil // the call's row was recorded with its approval
	switch {
	case err == nil && (ap.State == store.ApprovalDenied || ap.State == store.ApprovalExpired):
		// Denied (or expired by a stop that this drive outlived): the
		// model is told so, whether or not this process has the server.
		tool := mcp.Tool{Server: ap.Server, Tool: ap.Tool}
		json.Unmarshal([]byte(ap.Annotations), &tool.Annotations)
		step := newStep(run, call, tool, args, s.nowMS())
		plan := h.finish(&step, OutcomeDenied, toolMessage(StatusDenied, call.Name, "the user denied this tool call; it was not made"))
		return plan, h.insertStep(ctx, tx, step, false)
	case err == nil && ap.State == store.ApprovalPending:
		// It waits for the user in any process, with the server or not.
		return agent.StepPlan{Action: agent.StepWait}, nil
	case tool == nil:
		return resultPlan(toolMessage(StatusFailed, call.Name, h.whyNoTool(call.Name))), nil
	case errors.Is(err, store.ErrNotFound):
		allowed := tool.AutoApproved
		if !allowed {
			if allowed, err = s.store.HasGrant(ctx, tx, run.ChatID, tool.Server, tool.Tool); err != nil {
				return agent.StepPlan{}, err
			}
		}
		if !allowed {
			return agent.StepPlan{Action: agent.StepWait}, h.askApproval(ctx, tx, run, call, *tool, args)
		}
	case err != nil:
		return agent.StepPlan{}, err
	}
	step := newStep(run, call, *tool, args, s.nowMS())
	step.Attempts = 1
	return h.callPlan(step, agent.StepCall), h.insertStep(ctx, tx, step, !asked)
}

// planRecorded re-enters a step found in the record.
func (h *mcpHost) planRecorded(ctx context.Context, tx *txn, step store.ToolStep) (agent.StepPlan, error) {
	s := h.s
	switch step.State {
	case store.StepDone:
		return resultPlan(json.RawMessage(step.Result.String)), nil
	case store.StepInputRequired:
		return h.planAnswered(ctx, tx, step)
	}
	tx.emit(stepEvent(step))
	// Started, and nobody is making the call: a crash (or a drive that
	// ended) left its outcome unknown.
	if !step.ReadOnly && !step.Idempotent {
		plan := h.finish(&step, OutcomeInterrupted, toolMessage(StatusInterrupted, step.Name, "followup stopped before the call's result was recorded; it was not made again"))
		return plan, s.store.UpdateToolStep(ctx, tx, step)
	}
	step.Attempts++
	if err := s.store.UpdateToolStep(ctx, tx, step); err != nil {
		return agent.StepPlan{}, err
	}
	w := decodeWait(step.RequestState)
	if w.Input != nil {
		// The call was a retry with the user's replies: retry it again.
		replies, _, err := h.replies(ctx, tx, w)
		return h.retryPlan(step, w.Input, replies), err
	}
	return h.callPlan(step, agent.StepCall), nil
}

// planAnswered decides about a call that waits for the questions its
// server asked: wait while one is open; once all are closed, retry it with
// the replies (input_required) or call it again (-32042, each URL done).
func (h *mcpHost) planAnswered(ctx context.Context, tx *txn, step store.ToolStep) (agent.StepPlan, error) {
	s := h.s
	w := decodeWait(step.RequestState)
	replies, open, err := h.replies(ctx, tx, w)
	if err != nil || open {
		return agent.StepPlan{Action: agent.StepWait}, err
	}
	tx.emit(stepEvent(step))
	if w.Input != nil {
		step.State, step.Attempts = store.StepStarted, step.Attempts+1
		return h.retryPlan(step, w.Input, replies), s.store.UpdateToolStep(ctx, tx, step)
	}
	for _, rp := range replies {
		if rp.Action != mcp.ActionAccept {
			plan := h.finish(&step, OutcomeDeclined, declinedURL(step.Name, rp.Action))
			// The call is not made again: no reply of any of its
			// questions reaches the server.
			if err := h.settleServerDeliveries(ctx, tx, step, errNotCalledAgain); err != nil {
				return agent.StepPlan{}, err
			}
			return plan, s.store.UpdateToolStep(ctx, tx, step)
		}
	}
	// The links are done; the questions stay named, so the call made
	// again records them delivered (settleServerDeliveries).
	step.State, step.Attempts = store.StepStarted, step.Attempts+1
	if w.Done == nil {
		w.Done = map[string]int{}
	}
	for _, e := range w.URLs {
		w.Done[e.URL]++
	}
	w.URLs = nil
	step.RequestState = nullString(mustJSON(w))
	return h.callPlan(step, agent.StepCall), s.store.UpdateToolStep(ctx, tx, step)
}

// Finish records what a call came to (agent.StepHost).
func (h *mcpHost) Finish(ctx context.Context, cc agent.CallContext, call agent.ToolCall, res mcp.Result, callErr error) (agent.StepPlan, error) {
	s := h.s
	stopped := ctx.Err() != nil
	// What the server said is recorded even when the drive was stopped
	// meanwhile: the transcript shows it.
	wctx := context.WithoutCancel(ctx)
	var plan agent.StepPlan
	err := s.write(wctx, func(tx *txn) error {
		plan = agent.StepPlan{}
		step, err := s.store.GetToolStep(wctx, tx, cc.RunID, cc.ToolCallID)
		if err != nil {
			return err
		}
		run, err := s.store.GetRun(wctx, tx, cc.RunID)
		if err != nil {
			return err
		}
		if step.State == store.StepDone {
			plan = resultPlan(json.RawMessage(step.Result.String))
			return h.recordResult(wctx, tx, run, call, &plan)
		}
		tx.emit(stepEvent(step))
		if err := h.callEnded(wctx, tx, &run, step, callErr); err != nil {
			return err
		}
		step.DurationMS += res.Duration.Milliseconds()
		if err := h.settleServerDeliveries(wctx, tx, step, callErr); err != nil {
			return err
		}
		why, gaveUp := h.givenUp(stepKey{cc.RunID, cc.ToolCallID})
		switch {
		case gaveUp:
			plan = h.finish(&step, OutcomeInterrupted, toolMessage(StatusInterrupted, step.Name, why))
		case callErr != nil && stopped:
			plan = h.finish(&step, OutcomeInterrupted, toolMessage(StatusInterrupted, step.Name, "the task was stopped during the call"))
		case callErr != nil:
			plan = h.finish(&step, OutcomeFailed, toolMessage(StatusFailed, step.Name, callErr.Error()))
		case res.InputRequired != nil || len(res.URLRequired) > 0:
			if plan, err = h.askForStep(wctx, tx, &step, res); err != nil {
				return err
			}
		case res.IsError:
			plan = h.finish(&step, OutcomeToolError, toolResult(step.Name, res))
		default:
			plan = h.finish(&step, OutcomeOK, toolResult(step.Name, res))
		}
		if err := s.store.UpdateToolStep(wctx, tx, step); err != nil || stopped {
			return err
		}
		return h.recordResult(wctx, tx, run, call, &plan)
	})
	if err != nil {
		return plan, err
	}
	if plan.Recorded {
		s.broker.Publish(Event{Kind: EvMessage, ChatID: cc.ChatID, RunID: cc.RunID})
		s.checkpoint(CrashToolFinished)
	}
	if plan.Action == agent.StepWait && callErr == nil && res.InputRequired == nil && len(res.URLRequired) > 0 {
		// -32042: this process keeps the connection the server knows
		// the call by until the links are done (urlwait.go).
		if done, err := h.awaitLinks(ctx, cc); err != nil || done {
			if err != nil {
				return plan, err
			}
			return h.Plan(ctx, cc, call, nil)
		}
	}
	return plan, nil
}

// callEnded closes what a call's end leaves behind: a question the server
// asked during it and never took back is withdrawn (the call has its
// result) — disconnected when the call ended because the server's
// connection did (callErr) — and the run, which waited while the question
// was open, runs on.
// A run that did not wait (the usual call) costs nothing here; run is
// brought up to date.
func (h *mcpHost) callEnded(ctx context.Context, tx *txn, run *store.Run, step store.ToolStep, callErr error) error {
	s := h.s
	reason := ReasonWithdrawn
	if errors.Is(callErr, mcp.ErrConnectionEnded) {
		reason = ReasonDisconnected
	}
	if run.State != store.RunWaitingInput {
		return nil // a question left open then is withdrawn by its handler (agent/mcp)
	}
	ms, err := s.store.StepMCPRequests(ctx, tx, step.RunID, step.ToolCallID)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if !m.Classic || !m.Open {
			continue
		}
		r, err := s.store.GetRequest(ctx, tx, m.RequestID)
		if err != nil {
			return err
		}
		if r.State == store.ReqPending {
			if err := s.closeRequest(ctx, tx, &r, store.ReqExpired, reason); err != nil {
				return err
			}
		}
	}
	if *run, err = s.store.GetRun(ctx, tx, step.RunID); err != nil {
		return err
	}
	_, err = s.moveRun(ctx, tx, run, store.RunWaitingInput, store.RunRunning)
	return err
}

// recordResult writes a result plan's result to the run's history in the
// transaction that decided it, so one commit records both the step's
// outcome and what the model receives (Recorded). A run that has ended
// records nothing more.
func (h *mcpHost) recordResult(ctx context.Context, tx store.Handle, run store.Run, call agent.ToolCall, plan *agent.StepPlan) error {
	if plan.Action != agent.StepResult || store.RunEnded(run.State) {
		return nil
	}
	plan.Recorded = true
	return h.s.appendToolResult(ctx, tx, run, call, plan.Result)
}

// whyNoTool says why no connected server offers the tool a call names:
// its server is not connected (and why), or it has no such tool.
func (h *mcpHost) whyNoTool(name string) string {
	if h.m == nil {
		return "no MCP servers are configured"
	}
	for _, srv := range h.m.Status().Servers {
		if !strings.HasPrefix(name, mcp.ToolName(srv.Name, "")) {
			continue
		}
		if srv.State != mcp.StateConnected {
			return "MCP server " + srv.Name + " " + srv.Words()
		}
		return "MCP server " + srv.Name + " has no tool of this name (followup mcp list shows its tools)"
	}
	return "no configured MCP server offers a tool of this name (followup mcp list shows the servers and their tools)"
}

// newStep is the record of a call about to be made.
func newStep(run store.Run, call agent.ToolCall, tool mcp.Tool, args string, now int64) store.ToolStep {
	return store.ToolStep{RunID: run.ID, ToolCallID: call.ID, ChatID: run.ChatID, Name: call.Name, Server: tool.Server,
		Tool: tool.Tool, Arguments: args, ReadOnly: tool.Annotations.ReadOnly, Idempotent: tool.Annotations.Idempotent,
		State: store.StepStarted, StartedAt: now}
}

// insertStep records a step, and its transcript row unless the call has
// one already (row false: its approval was asked).
func (h *mcpHost) insertStep(ctx context.Context, tx *txn, step store.ToolStep, row bool) error {
	s := h.s
	if err := s.store.InsertToolStep(ctx, tx, step); err != nil {
		return err
	}
	tx.emit(stepEvent(step), Event{Kind: EvMessage, ChatID: step.ChatID, RunID: step.RunID})
	if !row {
		return nil
	}
	call := agent.ToolCall{ID: step.ToolCallID, Name: step.Name}
	return h.insertStepRow(ctx, tx, step.RunID, step.ChatID, step.Server, step.Tool, call, step.StartedAt)
}

// stepEvent says that step changed.
func stepEvent(step store.ToolStep) Event {
	return Event{Kind: EvToolStep, ChatID: step.ChatID, RunID: step.RunID, ToolCallID: step.ToolCallID}
}

// insertStepRow records the transcript row of a call (role tool_step),
// which names its step by run and call id.
func (h *mcpHost) insertStepRow(ctx context.Context, tx *txn, runID, chatID, server, tool string, call agent.ToolCall, at int64) error {
	tx.emit(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
	_, err := h.s.store.InsertMessage(ctx, tx, store.Message{ChatID: chatID, RunID: nullString(runID),
		Role: RoleToolStep, Content: server + " · " + tool, ToolCallID: call.ID, ToolName: call.Name,
		Visible: true, CreatedAt: at})
	return err
}

// finish records step done with outcome, the model told result, which
// the plan returned hands it.
func (h *mcpHost) finish(step *store.ToolStep, outcome string, result json.RawMessage) agent.StepPlan {
	step.State, step.Outcome = store.StepDone, outcome
	step.Result = nullString(string(result))
	step.FinishedAt = nullInt(h.s.nowMS())
	return resultPlan(result)
}

// callPlan is the call of a recorded step, bounded by the reply-size
// policy and naming its origin for the questions it may cause.
func (h *mcpHost) callPlan(step store.ToolStep, action agent.StepAction) agent.StepPlan {
	return agent.StepPlan{Action: action, Request: mcp.CallRequest{
		Server: step.Server, Tool: step.Tool, Arguments: json.RawMessage(step.Arguments), MaxBytes: h.s.policy.ReplySize,
		Origin: mcp.Origin{ChatID: step.ChatID, RunID: step.RunID, ToolCallID: step.ToolCallID},
	}}
}

// retryPlan is the call of a recorded step made again with the replies to
// the questions its server asked (input_required).
func (h *mcpHost) retryPlan(step store.ToolStep, in *mcp.InputRequired, replies map[string]mcp.Reply) agent.StepPlan {
	p := h.callPlan(step, agent.StepRetry)
	p.Input, p.Replies = in, replies
	return p
}

func resultPlan(r json.RawMessage) agent.StepPlan {
	return agent.StepPlan{Action: agent.StepResult, Result: r}
}

// callArguments is a call's arguments as recorded: a JSON object ("{}"
// when the model sent none).
func callArguments(raw json.RawMessage) string {
	var v map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return "{}"
	}
	return string(raw)
}
