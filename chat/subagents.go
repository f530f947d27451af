package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"followup/agent"
	"followup/store"
)

// Sub-agents (docs/behaviour.md): agent_delegate starts a child run in the
// same chat, with its own history, lease, steps and deliveries. The
// parent's call stays open, and the parent waits (waiting_children), until
// the child ends; the child's end wakes the parent in the same transaction,
// and the parent's next drive records child_done or child_failed as the
// call's result. Nothing of this lives in memory: a drive after a crash
// finds the children from the record.

const (
	maxChildren = 4 // children of one run at once
	maxDepth    = 2 // a root's children are at depth 1, theirs at 2
)

var childName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

type delegateArgs struct {
	Name  string   `json:"name"`
	Brief string   `json:"brief"`
	Tools []string `json:"tools"`
}

// Delegate implements agent.Delegator.
func (h runHost) Delegate(ctx context.Context, cc agent.CallContext, call agent.ToolCall) (json.RawMessage, bool, error) {
	s := h.s
	var res json.RawMessage
	wait, created := false, false
	err := s.write(ctx, func(tx *txn) error {
		parent, err := s.store.GetRun(ctx, tx, cc.RunID)
		if err != nil {
			return err
		}
		tree, err := s.store.Tree(ctx, tx, parent.ID)
		if err != nil {
			return err
		}
		running := 0
		var a delegateArgs
		refuse := DecodeArgs(call.Arguments, &a)
		for _, k := range tree[1:] {
			if k.ParentRunID != parent.ID {
				continue
			}
			if k.ParentCallID == call.ID {
				res, wait = childResult(k), !store.RunEnded(k.State)
				return nil
			}
			if !store.RunEnded(k.State) {
				running++
			}
			if refuse == nil && k.Name == a.Name {
				refuse = errorf(CodeInvalidArgument, "this task already has a sub-agent named %q: choose another name", a.Name)
			}
		}
		chain, err := s.ancestors(ctx, tx, parent)
		if err != nil {
			return err
		}
		switch {
		case refuse != nil:
		case !childName.MatchString(a.Name):
			refuse = errorf(CodeInvalidArgument, "name %q must match ^[a-z][a-z0-9-]{0,31}$ (for example venue)", a.Name)
		case strings.TrimSpace(a.Brief) == "":
			refuse = errorf(CodeInvalidArgument, "brief is empty: say what the sub-agent should do")
		case len(chain) > maxDepth:
			refuse = errorf(CodeLimitExceeded, "sub-agents nest at most %d deep: do this part yourself", maxDepth)
		case running >= maxChildren:
			refuse = errorf(CodeLimitExceeded, "at most %d sub-agents run at once: wait for one to finish", maxChildren)
		}
		if refuse != nil {
			res = ErrorJSON(refuse)
			return nil
		}
		now := s.nowMS()
		child := store.Run{ID: NewID("run"), ChatID: parent.ChatID, State: store.RunRunning, Provider: parent.Provider,
			Model: parent.Model, CreatedAt: now, UpdatedAt: now, ParentRunID: parent.ID, Name: a.Name, ParentCallID: call.ID}
		if a.Tools != nil {
			child.Tools = nullString(mustJSON(a.Tools))
		}
		if child, err = s.store.InsertRun(ctx, tx, child); err != nil {
			return err
		}
		wait, created = true, true
		tx.emit(Event{Kind: EvRun, ChatID: cc.ChatID, RunID: cc.RunID})
		if _, err = s.store.InsertMessage(ctx, tx, store.Message{ChatID: child.ChatID, RunID: nullString(child.ID), Role: RoleSubAgent,
			Content: a.Name, Visible: true, CreatedAt: now}); err != nil {
			return err
		}
		_, err = s.store.InsertMessage(ctx, tx, store.Message{ChatID: child.ChatID, RunID: nullString(child.ID), Role: store.RoleUser,
			Content: a.Brief, ForModel: true, CreatedAt: now})
		return err
	})
	if err == nil && created {
		s.checkpoint(CrashChildStarted)
	}
	return res, wait, err
}

// childResult is what an ended child's parent call returns.
func childResult(k store.Run) json.RawMessage {
	if k.State == store.RunSucceeded {
		return mustRaw(map[string]any{"status": "child_done", "name": k.Name, "runId": k.ID, "reply": k.Reply})
	}
	why := cmp.Or(k.Error, "the sub-agent was "+k.State)
	return mustRaw(map[string]any{"status": "child_failed", "name": k.Name, "runId": k.ID, "state": k.State, "error": why})
}

func mustRaw(v any) json.RawMessage { return json.RawMessage(mustJSON(v)) }

// ancestors lists run and the runs above it, up to its root (last).
func (s *Service) ancestors(ctx context.Context, tx store.Handle, run store.Run) ([]store.Run, error) {
	chain := []store.Run{run}
	for run.ParentRunID != "" {
		var err error
		if run, err = s.store.GetRun(ctx, tx, run.ParentRunID); err != nil {
			return nil, err
		}
		chain = append(chain, run)
	}
	return chain, nil
}

// treeOf lists the whole task run belongs to, its root first.
func (s *Service) treeOf(ctx context.Context, tx store.Handle, run store.Run) ([]store.Run, error) {
	chain, err := s.ancestors(ctx, tx, run)
	if err != nil {
		return nil, err
	}
	return s.store.Tree(ctx, tx, chain[len(chain)-1].ID)
}

// treeCredits counts what the whole task has used (docs/behaviour.md: the
// caps count across the tree, so a child cannot reset them by being new).
func (s *Service) treeCredits(ctx context.Context, tx store.Handle, run store.Run) (calls, questions int, err error) {
	tree, err := s.treeOf(ctx, tx, run)
	for _, r := range tree {
		calls, questions = calls+r.ModelCalls, questions+r.Questions
	}
	return calls, questions, err
}

// openChildren reports whether run has a child that has not ended.
func (s *Service) openChildren(ctx context.Context, tx store.Handle, run store.Run) (bool, error) {
	tree, err := s.store.Tree(ctx, tx, run.ID)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(tree[1:], func(k store.Run) bool { return k.ParentRunID == run.ID && !store.RunEnded(k.State) }), nil
}

// childEnded wakes the parent of a run that has just ended, in the same
// transaction: its next drive records the child's result.
func (s *Service) childEnded(ctx context.Context, tx *txn, run store.Run) error {
	if run.ParentRunID == "" {
		return nil
	}
	p, err := s.store.GetRun(ctx, tx, run.ParentRunID)
	if err != nil {
		return err
	}
	_, err = s.moveRun(ctx, tx, &p, store.RunWaitingChildren, store.RunRunning)
	return err
}

// driveChildren drives, each under its own lease and all at once, the
// children of a run waiting for them that no live process holds, until
// each waits or ends. It reports whether the run can now go on.
func (s *Service) driveChildren(ctx context.Context, runID string) (bool, error) {
	tree, err := s.store.Tree(ctx, s.reader(), runID)
	if err != nil {
		return false, err
	}
	var wg sync.WaitGroup
	for _, k := range tree[1:] {
		if k.ParentRunID == runID && !store.RunEnded(k.State) {
			wg.Add(1)
			go func() { defer wg.Done(); s.drive(ctx, k.ID) }() // a busy or failing child answers for itself
		}
	}
	wg.Wait()
	run, err := s.store.GetRun(ctx, s.reader(), runID)
	return err == nil && run.State == store.RunRunning, err
}

// RoleSubAgent is a sub-agent's row in its chat's transcript: read, its
// Content is the sub-agent's last line (its newest reply, or why it
// failed) and State where it stands (subAgentRows).
const RoleSubAgent = "sub_agent"

// subAgentRows fills the sub-agent rows of a transcript page from their runs.
func (s *Service) subAgentRows(ctx context.Context, tx store.Handle, msgs []Message) error {
	for i, m := range msgs {
		if m.Role != RoleSubAgent {
			continue
		}
		run, err := s.store.GetRun(ctx, tx, m.RunID)
		if err != nil {
			return err
		}
		msgs[i].Name, msgs[i].State, msgs[i].Content = run.Name, RunState(run.State), run.Reply
		if run.Error != "" {
			msgs[i].Content = run.Error
		}
	}
	return nil
}

// ChildView is a sub-agent as inspect shows it, with its own children.
type ChildView struct {
	RunView
	Children []ChildView `json:"children"`
}

// Children lists the sub-agents of a run, recursively, oldest first.
func (s *Service) Children(ctx context.Context, runID string) ([]ChildView, error) {
	tree, err := s.store.Tree(ctx, s.reader(), runID)
	if err != nil {
		return nil, err
	}
	var under func(id string) []ChildView
	under = func(id string) []ChildView {
		out := []ChildView{}
		for _, k := range tree {
			if k.ParentRunID == id {
				out = append(out, ChildView{RunView: runView(k), Children: under(k.ID)})
			}
		}
		return out
	}
	return under(runID), nil
}

// WaitsFor lists what a run or its sub-agents wait for: their open
// requests and pending approvals, oldest first (never nil: JSON prints
// lists).
func (s *Service) WaitsFor(ctx context.Context, runID string) ([]RequestView, []ApprovalView, error) {
	tree, err := s.store.Tree(ctx, s.reader(), runID)
	if err != nil || len(tree) == 0 {
		return nil, nil, notFound(cmp.Or(err, store.ErrNotFound), "run", runID)
	}
	in := map[string]bool{}
	for _, r := range tree {
		in[r.ID] = true
	}
	pend, err := s.Pending(ctx, tree[0].ChatID)
	if err != nil {
		return nil, nil, err
	}
	aps, err := s.PendingApprovals(ctx, tree[0].ChatID)
	return slices.DeleteFunc(pend, func(r RequestView) bool { return !in[r.RunID] }),
		slices.DeleteFunc(aps, func(a ApprovalView) bool { return !in[a.RunID] }), err
}
