package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"followup/agent/mcp"
	"followup/store"
)

// ToolStepView is one MCP tool call as the transcript shows it: server,
// tool, arguments, where it stands, what the model was told and how long
// the server took. Arguments and Text come from the model and the server:
// untrusted, to be sanitised where drawn.
type ToolStepView struct {
	RunID      string          `json:"runId"`
	ToolCallID string          `json:"toolCallId"`
	ChatID     string          `json:"chatId"`
	Name       string          `json:"name"`
	Server     string          `json:"server"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	// State is awaiting_approval (the call waits for the user's
	// approval: ApprovalID), started (the call is being made),
	// input_required (it waits for the questions its server asked:
	// RequestIDs) or done.
	State string `json:"state"`
	// Outcome, once done: ok, tool_error, denied, interrupted, failed or
	// declined (Outcome* constants).
	Outcome string `json:"outcome,omitempty"`
	// Status and Text are what the model received: its status and the
	// tool's text (or why there is none).
	Status     string          `json:"status,omitempty"`
	Text       string          `json:"text,omitempty"`
	Structured json.RawMessage `json:"structuredContent,omitempty"`
	Truncated  bool            `json:"truncated,omitempty"`
	// Links are the result's resource links, which the user may attach.
	Links []mcp.Resource `json:"resourceLinks,omitempty"`
	// RequestIDs are the questions the call's server asked, oldest first.
	RequestIDs []string `json:"requestIds"`
	// ApprovalID is the call's approval, when it needed one.
	ApprovalID string        `json:"approvalId,omitempty"`
	Attempts   int           `json:"attempts"`
	ReadOnly   bool          `json:"readOnly"`
	Idempotent bool          `json:"idempotent"`
	Duration   time.Duration `json:"durationNs"`
	StartedAt  time.Time     `json:"startedAt"`
	FinishedAt *time.Time    `json:"finishedAt,omitempty"`
}

// StepAwaitingApproval is the state of a call whose approval is asked and
// not decided: it has a transcript row and no step yet.
const StepAwaitingApproval = "awaiting_approval"

// ToolStep reads one call: its step, or, before the step is recorded, what
// its approval says (awaiting_approval while pending).
func (s *Service) ToolStep(ctx context.Context, runID, toolCallID string) (ToolStepView, error) {
	var v ToolStepView
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		st, err := s.store.GetToolStep(ctx, tx, runID, toolCallID)
		if err == nil {
			v, err = s.toolStepView(ctx, tx, st)
			return err
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		a, aerr := s.store.ApprovalFor(ctx, tx, runID, toolCallID)
		if aerr != nil {
			return notFound(err, "tool call", toolCallID)
		}
		v = approvedStepView(a)
		return nil
	})
	return v, err
}

// approvedStepView is a call known only by its approval: waiting for it,
// or decided and not yet taken on by a drive.
func approvedStepView(a store.Approval) ToolStepView {
	v := ToolStepView{RunID: a.RunID, ToolCallID: a.ToolCallID, ChatID: a.ChatID, Name: a.Name, Server: a.Server,
		Tool: a.Tool, Arguments: json.RawMessage(a.Arguments), State: StepAwaitingApproval, RequestIDs: []string{},
		ApprovalID: a.ID, StartedAt: msTime(a.CreatedAt)}
	var ann mcp.Annotations
	json.Unmarshal([]byte(a.Annotations), &ann)
	v.ReadOnly, v.Idempotent = ann.ReadOnly, ann.Idempotent
	switch a.State {
	case store.ApprovalAllowed:
		v.State = store.StepStarted // the drive that goes on makes the call
	case store.ApprovalDenied:
		v.State, v.Outcome, v.Status = store.StepDone, OutcomeDenied, StatusDenied
	case store.ApprovalExpired:
		v.State, v.Outcome, v.Status = store.StepDone, OutcomeInterrupted, StatusInterrupted
		v.Text = "the task was stopped before the call was approved; it was not made"
	}
	return v
}

func (s *Service) toolStepView(ctx context.Context, h store.Handle, st store.ToolStep) (ToolStepView, error) {
	v := ToolStepView{RunID: st.RunID, ToolCallID: st.ToolCallID, ChatID: st.ChatID, Name: st.Name, Server: st.Server,
		Tool: st.Tool, Arguments: json.RawMessage(st.Arguments), State: st.State, Outcome: st.Outcome,
		RequestIDs: []string{}, Attempts: st.Attempts, ReadOnly: st.ReadOnly, Idempotent: st.Idempotent,
		Duration: time.Duration(st.DurationMS) * time.Millisecond, StartedAt: msTime(st.StartedAt), FinishedAt: msTimeOf(st.FinishedAt)}
	if st.Result.Valid {
		var r struct {
			Status     string          `json:"status"`
			Text       string          `json:"text"`
			Message    string          `json:"message"`
			Structured json.RawMessage `json:"structuredContent"`
			Truncated  bool            `json:"truncated"`
			Links      []mcp.Resource  `json:"resourceLinks"`
		}
		json.Unmarshal([]byte(st.Result.String), &r)
		v.Status, v.Text, v.Structured, v.Truncated, v.Links = r.Status, r.Text, r.Structured, r.Truncated, r.Links
		v.Text = cmp.Or(v.Text, r.Message)
	}
	ms, err := s.store.StepMCPRequests(ctx, h, st.RunID, st.ToolCallID)
	if err != nil {
		return v, err
	}
	for _, m := range ms {
		v.RequestIDs = append(v.RequestIDs, m.RequestID)
	}
	return v, nil
}
