package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// Approvals (docs/mcp.md): a call of a tool not in its server's autoApprove
// and not allowed for the chat waits for the user's decision — allow
// once, allow for this chat, or deny. The run waits (waiting_input) and
// the approval survives a restart like a request. An approval is a
// decision, never an input request; answering a request never grants one
// and no message ever decides one.

// ApprovalView is an approval as every surface shows it: of a tool call
// (kind "tool"), or of a server's sampling request during one (kind
// "sampling", sampling.go).
type ApprovalView struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	ChatID     string `json:"chatId"`
	RunID      string `json:"runId"`
	ToolCallID string `json:"toolCallId"`
	// Name is the tool as the model calls it; Server and Tool are the
	// config key and the server's own name.
	Name        string          `json:"name"`
	Server      string          `json:"server"`
	Tool        string          `json:"tool"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Arguments   json.RawMessage `json:"arguments,omitempty"`
	// Sampling is a sampling approval's request (and reply).
	Sampling *SamplingView `json:"sampling,omitempty"`
	// Annotations are the tool's hints, as its server gave them
	// (untrusted).
	Annotations mcp.Annotations `json:"annotations"`
	State       string          `json:"state"`
	Scope       string          `json:"scope,omitempty"`
	CreatedAt   time.Time       `json:"createdAt"`
	DecidedAt   *time.Time      `json:"decidedAt,omitempty"`
	// Owner is the sub-agent whose call it is, when a sub-agent's.
	Owner *Owner `json:"owner,omitempty"`
}

// ownedApproval is a's view with the sub-agent whose call it is.
func (s *Service) ownedApproval(ctx context.Context, a store.Approval) (ApprovalView, error) {
	v := approvalView(a)
	run, err := s.store.GetRun(ctx, s.reader(), a.RunID)
	if err != nil || run.ParentRunID == "" {
		return v, err
	}
	o, err := s.runOwner(ctx, s.reader(), run)
	v.Owner = &o
	return v, err
}

func approvalView(a store.Approval) ApprovalView {
	v := ApprovalView{ID: a.ID, Kind: a.Kind, ChatID: a.ChatID, RunID: a.RunID, ToolCallID: a.ToolCallID, Name: a.Name,
		Server: a.Server, Tool: a.Tool, Title: a.Title, Description: a.Description,
		Arguments: json.RawMessage(a.Arguments), State: a.State, Scope: a.Scope, CreatedAt: msTime(a.CreatedAt),
		DecidedAt: msTimeOf(a.DecidedAt)}
	json.Unmarshal([]byte(a.Annotations), &v.Annotations)
	if a.Kind == store.ApprovalSampling {
		v.Sampling, v.Arguments = samplingView(a), nil
	}
	return v
}

// askApproval records a pending approval for a call, and the call's row
// in the transcript: the row shows the call waiting for the approval, then
// what it came to (the step, recorded once decided, keeps the row).
func (h *mcpHost) askApproval(ctx context.Context, tx *txn, run store.Run, call agent.ToolCall, tool mcp.Tool, args string) error {
	a := store.Approval{ID: NewID("ap"), ChatID: run.ChatID, RunID: run.ID, ToolCallID: call.ID, Name: call.Name,
		Server: tool.Server, Tool: tool.Tool, Title: tool.Title, Description: tool.Description, Arguments: args,
		Annotations: mustJSON(tool.Annotations), State: store.ApprovalPending, CreatedAt: h.s.nowMS()}
	if err := h.s.store.InsertApproval(ctx, tx, a); err != nil {
		return err
	}
	tx.emit(approvalEvent(a))
	return h.insertStepRow(ctx, tx, run.ID, run.ChatID, tool.Server, tool.Tool, call, a.CreatedAt)
}

// approvalEvent says that a changed.
func approvalEvent(a store.Approval) Event {
	return Event{Kind: EvApproval, ChatID: a.ChatID, RunID: a.RunID, ApprovalID: a.ID}
}

// PendingApprovals lists the pending approvals of a chat, or of every
// active chat when chatID is "", oldest first.
func (s *Service) PendingApprovals(ctx context.Context, chatID string) ([]ApprovalView, error) {
	as, err := s.store.PendingApprovals(ctx, s.reader(), chatID)
	if err != nil {
		return nil, err
	}
	out := []ApprovalView{}
	for _, a := range as {
		if a.Kind == store.ApprovalSampling && s.expireOrphanedSampling(ctx, a) {
			continue
		}
		v, err := s.ownedApproval(ctx, a)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Approval reads one approval.
func (s *Service) Approval(ctx context.Context, id string) (ApprovalView, error) {
	a, err := s.store.GetApproval(ctx, s.reader(), id)
	if err != nil {
		return ApprovalView{}, notFound(err, "approval", id)
	}
	return s.ownedApproval(ctx, a)
}

// ApprovalDecision is the receipt of approving or denying a tool call.
type ApprovalDecision struct {
	ApprovalID string `json:"approvalId"`
	CommandID  string `json:"commandId"`
	Kind       string `json:"kind"` // approve | deny
	State      string `json:"state"`
	Scope      string `json:"scope,omitempty"`
	RunID      string `json:"runId"`
}

func (d *ApprovalDecision) setCommandID(id string) { d.CommandID = id }

// Approve allows a pending tool call — once, or for the rest of the chat
// (forChat: the tool then runs without asking in this chat) — and moves
// its run back to running so a drive makes the call. A sampling request
// allowed for the chat lets its server sample without asking in the chat.
func (s *Service) Approve(ctx context.Context, id string, forChat bool, commandID string) (ApprovalDecision, error) {
	scope := store.ScopeOnce
	if forChat {
		scope = store.ScopeChat
	}
	return s.decide(ctx, id, commandID, "approve", store.ApprovalAllowed, scope)
}

// Deny refuses a pending tool call: the model is told tool_denied and the
// task goes on.
func (s *Service) Deny(ctx context.Context, id, commandID string) (ApprovalDecision, error) {
	return s.decide(ctx, id, commandID, "deny", store.ApprovalDenied, "")
}

func (s *Service) decide(ctx context.Context, id, commandID, kind, state, scope string) (ApprovalDecision, error) {
	if a, err := s.store.GetApproval(ctx, s.reader(), id); err == nil {
		s.expireOrphanedSampling(ctx, a)
	}
	var chatID string
	args := map[string]any{"approvalId": id, "scope": scope}
	return commandAs(s, ctx, commandID, kind, &chatID, args, func(tx *txn) (*ApprovalDecision, error) {
		a, err := s.store.GetApproval(ctx, tx, id)
		if err != nil {
			return nil, notFound(err, "approval", id)
		}
		chatID = a.ChatID
		if err := s.requireActive(ctx, tx, a.ChatID); err != nil {
			return nil, err
		}
		if a.State != store.ApprovalPending {
			return nil, &Error{Code: CodeTargetClosed, Message: "the approval is " + a.State,
				Details: map[string]any{"state": a.State}}
		}
		if a.Kind != store.ApprovalSampling && state == store.ApprovalAllowed && !s.mcp.configures(a.Server) {
			return nil, s.mcp.notHere(a)
		}
		now := s.nowMS()
		if err := s.decideApproval(ctx, tx, &a, state, scope); err != nil {
			return nil, err
		}
		if scope == store.ScopeChat {
			tool := a.Tool
			if a.Kind == store.ApprovalSampling {
				tool = "" // the server's sampling
			}
			if err := s.store.InsertGrant(ctx, tx, a.ChatID, a.Server, tool, now); err != nil {
				return nil, err
			}
		}
		run, err := s.store.GetRun(ctx, tx, a.RunID)
		if err == nil {
			err = s.wake(ctx, tx, run)
		}
		if err != nil {
			return nil, err
		}
		return &ApprovalDecision{ApprovalID: a.ID, Kind: kind, State: state, Scope: scope, RunID: a.RunID}, nil
	})
}

// decideApproval records a's decision (or expiry) and announces it.
func (s *Service) decideApproval(ctx context.Context, tx *txn, a *store.Approval, state, scope string) error {
	a.State, a.Scope, a.DecidedAt = state, scope, nullInt(s.nowMS())
	tx.emit(approvalEvent(*a))
	return s.store.UpdateApproval(ctx, tx, *a)
}

// configures reports whether this process has the named server in its
// configuration (connected or not): only such a process may take an
// allowed call on, since only it can make the call.
func (h *mcpHost) configures(server string) bool {
	return h.m != nil && slices.ContainsFunc(h.m.Status().Servers, func(srv mcp.ServerStatus) bool { return srv.Name == server })
}

// notHere is the refusal of allowing a call in a process without its
// server: the call would fail here for want of the server, so the approval
// stays pending for a process that has it (the chat screen, or a command
// given the same --mcp-config).
func (h *mcpHost) notHere(a store.Approval) error {
	config := "it has no MCP configuration"
	if h.config != "" {
		config = "its MCP configuration " + h.config + " names no such server"
	}
	return &Error{Code: CodeInvalidArgument,
		Message: fmt.Sprintf("approval %s is for a call of MCP server %q, which this process does not have (%s): the approval stays pending; decide it in the chat screen that shows it, or again with --mcp-config naming the file that configures %q",
			a.ID, a.Server, config, a.Server),
		Details: map[string]any{"server": a.Server, "config": h.config, "state": a.State}}
}

// stepWaits reports whether an open tool call of the run waits for the
// user: a pending approval, or a server's durable question still open.
// Settle keeps such a run waiting_input whatever else arrived, since the
// model cannot be called while its turn's calls have no results.
func (s *Service) stepWaits(ctx context.Context, tx store.Handle, runID string) (bool, error) {
	as, err := s.store.RunApprovals(ctx, tx, runID, store.ApprovalPending)
	if err != nil || len(as) > 0 {
		return len(as) > 0, err
	}
	steps, err := s.store.RunToolSteps(ctx, tx, runID)
	if err != nil {
		return false, err
	}
	for _, st := range steps {
		if st.State != store.StepInputRequired {
			continue
		}
		ms, err := s.store.StepMCPRequests(ctx, tx, runID, st.ToolCallID)
		if err != nil || slices.ContainsFunc(ms, func(m store.MCPRequest) bool { return m.Open }) {
			return err == nil, err
		}
	}
	return false, nil
}

// expireApprovals expires a stopped run's pending approvals.
func (s *Service) expireApprovals(ctx context.Context, tx *txn, runID string) error {
	as, err := s.store.RunApprovals(ctx, tx, runID, store.ApprovalPending)
	if err != nil {
		return err
	}
	for _, a := range as {
		if err := s.decideApproval(ctx, tx, &a, store.ApprovalExpired, ""); err != nil {
			return err
		}
	}
	return nil
}
