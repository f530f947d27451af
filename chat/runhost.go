package chat

import (
	"context"
	"encoding/json"
	"fmt"

	"followup/agent"
	"followup/store"
)

// runHost is the agent.Host of this service: each step of the model loop
// is written here before the loop acts on it.
type runHost struct{ s *Service }

var _ agent.Host = runHost{}

func (h runHost) Begin(ctx context.Context, runID string) (agent.Turn, error) {
	s, rd := h.s, h.s.reader()
	run, err := s.store.GetRun(ctx, rd, runID)
	if err != nil {
		return agent.Turn{}, notFound(err, "run", runID)
	}
	if err := s.requireActive(ctx, rd, run.ChatID); err != nil {
		return agent.Turn{}, err
	}
	msgs, err := s.store.History(ctx, rd, runID)
	if err != nil {
		return agent.Turn{}, err
	}
	t := agent.Turn{ChatID: run.ChatID, State: run.State}
	if t.ModelCalls, _, err = s.treeCredits(ctx, rd, run); err != nil {
		return agent.Turn{}, err
	}
	// A new task in a chat still knows what was said before it; a
	// sub-agent knows its brief.
	var earlier []store.Message
	if run.ParentRunID == "" {
		if earlier, err = s.store.EarlierConversation(ctx, rd, run.ChatID, run.Seq, earlierContext); err != nil {
			return agent.Turn{}, err
		}
	}
	for _, m := range earlier {
		t.History = append(t.History, agent.Message{Role: m.Role, Content: m.Content})
	}
	for _, m := range msgs {
		t.Seen = max(t.Seen, m.ID)
		am := agent.Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolName: m.ToolName}
		if m.Role == agent.RoleTool {
			am.Content, am.Images = resultImages(m.Content)
		}
		if m.ToolCalls.Valid {
			json.Unmarshal([]byte(m.ToolCalls.String), &am.ToolCalls)
		}
		t.History = append(t.History, am)
	}
	t.History = recentImages(resultsAfterCalls(t.History))
	if t.Unread, err = s.store.UnreadUserMessages(ctx, rd, runID, run.Seen); err != nil {
		return agent.Turn{}, err
	}
	return t, nil
}

// earlierContext is how many messages of a chat's earlier tasks a new task
// is given.
const earlierContext = 40

// resultsAfterCalls moves each tool result right after the turn that asked
// for it. A chat message recorded while the tools ran sits between them in
// time, but models require a turn's results to follow it directly.
func resultsAfterCalls(h []agent.Message) []agent.Message {
	results := map[string]agent.Message{}
	for _, m := range h {
		if m.Role == agent.RoleTool {
			results[m.ToolCallID] = m
		}
	}
	out := make([]agent.Message, 0, len(h))
	placed := map[string]bool{}
	for _, m := range h {
		if m.Role == agent.RoleTool {
			if !placed[m.ToolCallID] {
				out = append(out, m) // a result whose call is not in the history
			}
			continue
		}
		out = append(out, m)
		for _, c := range m.ToolCalls {
			if r, ok := results[c.ID]; ok && !placed[c.ID] {
				out = append(out, r)
				placed[c.ID] = true
			}
		}
	}
	return out
}

func (h runHost) RecordTurn(ctx context.Context, runID string, msg agent.Message, seen int64) error {
	s := h.s
	ended := false
	err := s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		if run.State != store.RunRunning {
			return agent.ErrRunEnded
		}
		// Sub-agents call at once: the cap of the task is checked again
		// where a turn counts, so the tree never records more turns than it.
		if calls, _, err := s.treeCredits(ctx, tx, run); err != nil {
			return err
		} else if limit := s.policy.ModelCalls; limit > 0 && calls >= limit {
			ended = true
			tx.emit(Event{Kind: EvRun, ChatID: run.ChatID, RunID: runID})
			return s.fail(ctx, tx, run, fmt.Sprintf("LIMIT_EXCEEDED: the task reached its cap of %d model calls", limit))
		}
		tx.emit(Event{Kind: EvMessage, ChatID: run.ChatID, RunID: runID})
		now := s.nowMS()
		m := store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleAssistant,
			Content: msg.Content, Visible: msg.Content != "" && run.ParentRunID == "", ForModel: true, CreatedAt: now}
		if len(msg.ToolCalls) > 0 {
			m.ToolCalls = nullString(mustJSON(msg.ToolCalls))
		}
		if _, err := s.store.InsertMessage(ctx, tx, m); err != nil {
			return err
		}
		if seen > 0 {
			// Messages the user sent while the model answered come after its
			// turn, as the model (and the user) experienced them.
			if err := s.store.MoveAfter(ctx, tx, runID, seen); err != nil {
				return err
			}
		}
		run.ModelCalls++
		run.Step++
		run.Seen = max(run.Seen, seen)
		if msg.Content != "" {
			run.Reply = msg.Content
		}
		run.UpdatedAt = now
		if err := s.store.TouchChat(ctx, tx, run.ChatID, now); err != nil {
			return err
		}
		return s.store.UpdateRun(ctx, tx, run)
	})
	if err == nil && ended {
		return agent.ErrRunEnded
	}
	if err == nil {
		s.checkpoint(CrashTurnRecorded)
	}
	return err
}

func (h runHost) RecordToolResult(ctx context.Context, runID string, call agent.ToolCall, result json.RawMessage) error {
	s := h.s
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		s.noteActivation(&run, call, result)
		return s.appendToolResult(ctx, tx, run, call, result)
	})
	if err == nil {
		s.checkpoint(CrashToolResultRecorded)
	}
	return err
}

// appendToolResult writes a tool's result to the run's history (an MCP
// step writes it with its outcome, in one transaction: toolsteps.go).
func (s *Service) appendToolResult(ctx context.Context, tx store.Handle, run store.Run, call agent.ToolCall, result json.RawMessage) error {
	now := s.nowMS()
	if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(run.ID), Role: store.RoleTool,
		Content: string(result), ToolCallID: call.ID, ToolName: call.Name, ForModel: true, CreatedAt: now}); err != nil {
		return err
	}
	run.Step++
	run.UpdatedAt = now
	return s.store.UpdateRun(ctx, tx, run)
}

func (h runHost) Fail(ctx context.Context, runID string, reason string) error {
	s := h.s
	return s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		tx.emit(Event{Kind: EvRun, ChatID: run.ChatID, RunID: runID}, Event{Kind: EvMessage, ChatID: run.ChatID, RunID: runID})
		if store.RunEnded(run.State) {
			return nil
		}
		return s.fail(ctx, tx, run, reason)
	})
}

// fail ends run with reason; a sub-agent's parent is woken to read it.
func (s *Service) fail(ctx context.Context, tx *txn, run store.Run, reason string) error {
	now := s.nowMS()
	run.State, run.Error, run.UpdatedAt = store.RunFailed, reason, now
	if err := s.store.UpdateRun(ctx, tx, run); err != nil {
		return err
	}
	if err := s.childEnded(ctx, tx, run); err != nil {
		return err
	}
	_, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(run.ID), Role: store.RoleNotice,
		Content: "The run failed: " + reason, Visible: run.ParentRunID == "", CreatedAt: now})
	return err
}
