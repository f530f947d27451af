package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// Sampling (docs/mcp.md): a server's sampling/createMessage during a tool
// call is a decision like a tool approval — an approval of kind sampling,
// pending until the user allows it once, allows the server's sampling for
// the chat (a grant with no tool), or denies it; the run waits meanwhile.
// Only an allowed request reaches followup's model. The exchange is kept
// on the approval and shown as a row of the transcript. Like a classic
// elicitation the request lives as long as its connection: the process
// driving the run waits for the decision, and if that process goes, the
// approval expires.

// RoleSampling is the transcript row of a sampling request's outcome.
const RoleSampling = "sampling"

// SamplingView is a server's sampling request as every surface shows it,
// with what followup would do with it.
type SamplingView struct {
	SystemPrompt string                `json:"systemPrompt,omitempty"`
	Messages     []mcp.SamplingMessage `json:"messages"`
	MaxTokens    int64                 `json:"maxTokens"` // the server's cap
	// Model and Cap are the model followup would use and its cap on the
	// reply: the lesser of the server's and followup's own.
	Model string `json:"model"`
	Cap   int    `json:"cap"`
	// Reply is the model's reply, once allowed and answered.
	Reply *mcp.Sampled `json:"reply,omitempty"`
}

// Sample records the server's request as a pending approval (allowed at
// once where the chat allows the server's sampling), waits for the user's
// decision and, if allowed, asks followup's model (mcp.Sampler).
func (h *mcpHost) Sample(ctx context.Context, q mcp.Sampling) (mcp.Sampled, error) {
	s := h.s
	drive, ok := h.drive(q.Origin.RunID)
	if !ok || q.Origin.ToolCallID == "" {
		return mcp.Sampled{}, mcp.InvalidParams("followup samples its model only during a tool call it makes")
	}
	v := SamplingView{SystemPrompt: q.SystemPrompt, Messages: q.Messages, MaxTokens: q.MaxTokens,
		Model: agent.ModelName(s.provider.Name(), s.model), Cap: int(min(max(q.MaxTokens, 1), agent.MaxReplyTokens))}
	var a store.Approval
	err := s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, q.Origin.RunID)
		if err != nil {
			return err
		}
		if store.RunEnded(run.State) {
			return errorf(CodeTargetClosed, "the task has ended")
		}
		granted, err := s.store.HasGrant(ctx, tx, run.ChatID, q.Server, "")
		if err != nil {
			return err
		}
		now := s.nowMS()
		a = store.Approval{ID: NewID("ap"), ChatID: run.ChatID, RunID: run.ID, ToolCallID: q.Origin.ToolCallID,
			Kind: store.ApprovalSampling, Name: mcp.ToolName(q.Server, q.Tool), Server: q.Server, Tool: q.Tool,
			Arguments: mustJSON(v), State: store.ApprovalPending, CreatedAt: now}
		if granted {
			a.State, a.Scope, a.DecidedAt = store.ApprovalAllowed, store.ScopeChat, nullInt(now)
		} else if _, err := s.moveRun(ctx, tx, &run, store.RunRunning, store.RunWaitingInput); err != nil {
			return err
		}
		tx.emit(approvalEvent(a))
		return s.store.InsertApproval(ctx, tx, a)
	})
	if err != nil {
		return mcp.Sampled{}, err
	}
	if a.State == store.ApprovalPending {
		if a, err = h.awaitDecision(ctx, drive, a); err != nil {
			return mcp.Sampled{}, err
		}
	}
	switch a.State {
	case store.ApprovalDenied:
		h.recordSampling(a, v, "denied by the user")
		return mcp.Sampled{}, mcp.ErrSamplingRejected
	case store.ApprovalExpired:
		return mcp.Sampled{}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: "the sampling request was given up before the user decided (the task stopped, or followup stopped waiting)"}
	}
	// The model's call ends with the drive, like the run's own.
	mctx, cancel := context.WithCancel(ctx)
	defer context.AfterFunc(drive.ctx, cancel)()
	defer cancel()
	msgs := make([]agent.Message, 0, len(q.Messages))
	for _, m := range q.Messages {
		role := agent.RoleUser // the spec's roles are user and assistant
		if m.Role == agent.RoleAssistant {
			role = m.Role
		}
		msgs = append(msgs, agent.Message{Role: role, Content: m.Text})
	}
	resp, err := s.provider.Complete(mctx, agent.Request{Model: s.model, System: q.SystemPrompt, Messages: msgs, MaxTokens: v.Cap})
	if err != nil {
		h.recordSampling(a, v, "followup's model failed: "+err.Error())
		return mcp.Sampled{}, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "followup's model failed: " + err.Error()}
	}
	v.Reply = &mcp.Sampled{Model: v.Model, Text: resp.Message.Content, StopReason: "endTurn"}
	if resp.Truncated {
		v.Reply.StopReason = "maxTokens"
	}
	h.recordSampling(a, v, "")
	return *v.Reply, nil
}

// awaitDecision waits until the sampling approval a is decided — here or
// in another process — or expired by a stop; if the server withdraws the
// request or the drive ends first, a expires. It returns a as it stands.
func (h *mcpHost) awaitDecision(ctx context.Context, drive driveInfo, a store.Approval) (store.Approval, error) {
	if drive.noWait {
		return h.expireSampling(a)
	}
	cur := a
	err := h.s.waitFor(ctx, drive.ctx.Done(), nil, func(ev Event) bool { return mayDecide(ev, a) }, func() (bool, error) {
		var err error
		cur, err = h.s.store.GetApproval(context.Background(), h.s.reader(), a.ID)
		return cur.State != store.ApprovalPending, err
	})
	switch {
	case err == errDriveEnded:
		return h.expireSampling(a)
	case err != nil && err == ctx.Err():
		h.expireSampling(a)
		return a, err
	}
	return cur, err
}

// mayDecide reports whether ev may tell of a decision on a (or its
// expiry): the approval's own event, its run's or chat's, or another
// process's commit. Streamed text and progress never do.
func mayDecide(ev Event, a store.Approval) bool {
	switch ev.Kind {
	case EvApproval:
		return ev.ApprovalID == a.ID || ev.ApprovalID == ""
	case EvRun:
		return ev.RunID == a.RunID
	case EvChat:
		return ev.ChatID == a.ChatID
	case EvExternal:
		return true
	}
	return false
}

// expireSampling expires a sampling approval still pending, and returns it
// as it stands.
func (h *mcpHost) expireSampling(a store.Approval) (store.Approval, error) {
	s, ctx := h.s, context.Background()
	err := s.write(ctx, func(tx *txn) error {
		cur, err := s.store.GetApproval(ctx, tx, a.ID)
		if a = cur; err != nil || cur.State != store.ApprovalPending {
			return err
		}
		return s.decideApproval(ctx, tx, &a, store.ApprovalExpired, "")
	})
	return a, err
}

// recordSampling records what a decided sampling request came to — the
// reply on its approval, and a row of the transcript saying what was asked
// and answered (or why nothing was: failed).
func (h *mcpHost) recordSampling(a store.Approval, v SamplingView, failed string) {
	s, ctx := h.s, context.Background()
	var b strings.Builder
	how := map[string]string{store.ScopeOnce: "allowed once", store.ScopeChat: "allowed for this chat"}[a.Scope]
	fmt.Fprintf(&b, "%s (MCP server) asked followup's model, during %s — %s\n", a.Server, a.Tool, cmp.Or(failed, how))
	if v.SystemPrompt != "" {
		fmt.Fprintf(&b, "system: %s\n", clip(v.SystemPrompt, 300))
	}
	for _, m := range v.Messages {
		fmt.Fprintf(&b, "%s: %s\n", m.Role, clip(m.Text, 300))
	}
	if v.Reply != nil {
		fmt.Fprintf(&b, "%s replied (up to %d tokens): %s", v.Model, v.Cap, v.Reply.Text)
		a.Result = mustJSON(v.Reply)
	}
	s.write(ctx, func(tx *txn) error {
		if err := s.store.UpdateApproval(ctx, tx, a); err != nil {
			return err
		}
		tx.emit(Event{Kind: EvMessage, ChatID: a.ChatID, RunID: a.RunID})
		_, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: a.ChatID, RunID: nullString(a.RunID), Role: RoleSampling,
			Content: strings.TrimSpace(b.String()), Visible: true, CreatedAt: s.nowMS()})
		return err
	})
}

// samplingView reads a sampling approval's request and reply.
func samplingView(a store.Approval) *SamplingView {
	var v SamplingView
	json.Unmarshal([]byte(a.Arguments), &v)
	if a.Result != "" {
		v.Reply = &mcp.Sampled{}
		json.Unmarshal([]byte(a.Result), v.Reply)
	}
	return &v
}

// expireStaleSampling expires the pending sampling approvals of a run whose
// drive is beginning: this process holds the run's lease now, so the
// connection they came on is gone.
func (s *Service) expireStaleSampling(ctx context.Context, runID string) error {
	as, err := s.store.RunApprovals(ctx, s.reader(), runID, store.ApprovalPending)
	for _, a := range as {
		if a.Kind == store.ApprovalSampling && err == nil {
			_, err = s.mcp.expireSampling(a)
		}
	}
	return err
}

// expireOrphanedSampling expires a pending sampling approval whose run no
// process drives any more, and says so: the server's request ended with
// the process that kept its connection, so a decision could reach nobody.
func (s *Service) expireOrphanedSampling(ctx context.Context, a store.Approval) bool {
	if a.Kind != store.ApprovalSampling || a.State != store.ApprovalPending {
		return false
	}
	run, err := s.store.GetRun(ctx, s.reader(), a.RunID)
	if err != nil {
		return false
	}
	if held, err := s.db.LeaseHeld(run.Seq); err != nil || held {
		return false
	}
	a, err = s.mcp.expireSampling(a)
	return err == nil && a.State == store.ApprovalExpired
}
