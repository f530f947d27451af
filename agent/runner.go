package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// RecordTurn appends the model's turn to the history. It fails with
	// ErrRunEnded when the run was stopped meanwhile.
	RecordTurn(ctx context.Context, runID string, msg Message) error
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
}

// Drive runs the loop until the run waits for input or ends, and returns
// its state.
func (r *Runner) Drive(ctx context.Context, runID string) (string, error) {
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
		if last := lastMessage(turn.History); last != nil && last.Role == RoleAssistant && len(last.ToolCalls) > 0 {
			// A crash after the turn was recorded: finish its tool calls.
			if err := r.runTools(ctx, turn, runID, *last); err != nil {
				return "", err
			}
			state, err := r.Host.Settle(ctx, runID, false)
			if err != nil || state != "running" {
				return state, err
			}
			continue
		}
		if last := lastMessage(turn.History); last != nil && last.Role == RoleAssistant {
			state, err := r.Host.Settle(ctx, runID, true)
			if err != nil || state != "running" {
				return state, err
			}
			continue
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
		if err := r.Host.RecordTurn(ctx, runID, msg); err != nil {
			return "", err
		}
	}
}

func (r *Runner) call(ctx context.Context, runID string, turn Turn) (Message, error) {
	req := Request{Model: r.Model, System: r.System, Messages: turn.History, Tools: r.Tools.Specs()}
	if r.Events != nil {
		r.Events.Thinking(runID, true)
		defer r.Events.Thinking(runID, false)
		req.OnText = func(delta string) { r.Events.Streaming(runID, delta, false) }
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

// runTools runs the tool calls of a recorded turn that have no result yet.
func (r *Runner) runTools(ctx context.Context, turn Turn, runID string, msg Message) error {
	done := map[string]bool{}
	for _, m := range turn.History {
		if m.Role == RoleTool {
			done[m.ToolCallID] = true
		}
	}
	for _, call := range msg.ToolCalls {
		if done[call.ID] {
			continue
		}
		var result json.RawMessage
		if t, ok := r.Tools.Get(call.Name); ok {
			result = t.Run(ctx, CallContext{ChatID: turn.ChatID, RunID: runID, ToolCallID: call.ID}, call.Arguments)
		} else {
			result = unknownTool(call.Name)
		}
		if err := r.Host.RecordToolResult(ctx, runID, call, result); err != nil {
			return err
		}
	}
	return nil
}

func lastMessage(h []Message) *Message {
	if len(h) == 0 {
		return nil
	}
	return &h[len(h)-1]
}
