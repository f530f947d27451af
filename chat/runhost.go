package chat

import (
	"context"
	"encoding/json"
	"errors"

	"followup/agent"
	"followup/store"
)

// runHost is the agent.Host of this service: each step of the model loop
// is written here before the loop acts on it.
type runHost struct{ s *Service }

var _ agent.Host = runHost{}

func (h runHost) Begin(ctx context.Context, runID string) (agent.Turn, error) {
	q := h.s.st.Read()
	run, err := q.GetRun(ctx, runID)
	if err != nil {
		return agent.Turn{}, notFound(err, "run", runID)
	}
	if err := h.s.requireActive(ctx, q, run.ChatID); err != nil {
		return agent.Turn{}, err
	}
	msgs, err := q.History(ctx, runID)
	if err != nil {
		return agent.Turn{}, err
	}
	t := agent.Turn{ChatID: run.ChatID, State: run.State, ModelCalls: run.ModelCalls}
	// A new task in a chat still knows what was said before it.
	earlier, err := q.EarlierConversation(ctx, run.ChatID, run.Seq, earlierContext)
	if err != nil {
		return agent.Turn{}, err
	}
	for _, m := range earlier {
		t.History = append(t.History, agent.Message{Role: m.Role, Content: m.Content})
	}
	for _, m := range msgs {
		t.Seen = max(t.Seen, m.ID)
		am := agent.Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolName: m.ToolName}
		if m.ToolCalls.Valid {
			json.Unmarshal([]byte(m.ToolCalls.String), &am.ToolCalls)
		}
		t.History = append(t.History, am)
	}
	t.History = resultsAfterCalls(t.History)
	if t.Unread, err = q.UnreadUserMessages(ctx, runID, run.Seen); err != nil {
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

// Deliver hands each pending or interrupted delivery to the run's history
// exactly once. The attempt is recorded first (state unknown); if the
// process dies before the message is written, the next Deliver finds the
// delivery unknown, checks the history, and delivers it once. Only the
// lease holder delivers, but a stop from another process may close a
// delivery at any time, so each step re-reads it inside its transaction.
func (h runHost) Deliver(ctx context.Context, runID string) (int, error) {
	s := h.s
	// A failed run keeps its deliveries pending until it is resumed.
	if run, err := s.st.Read().GetRun(ctx, runID); err != nil || run.State == store.RunFailed {
		return 0, err
	}
	ds, err := s.st.Read().RunDeliveries(ctx, runID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range ds {
		open := false
		err := s.st.Write(ctx, func(q store.Q) error {
			cur, ok, err := openDelivery(ctx, q, runID, d.ID)
			if err != nil || !ok {
				return err
			}
			open, d = true, cur
			d.Attempts++
			d.State, d.UpdatedAt = store.DeliveryUnknown, s.nowMS()
			return q.UpdateDelivery(ctx, d)
		})
		if err != nil {
			return n, err
		}
		if !open {
			continue
		}
		crashPoint(CrashDeliveryUnknown)
		var chatID string
		delivered := false
		err = s.st.Write(ctx, func(q store.Q) error {
			run, err := q.GetRun(ctx, runID)
			if err != nil {
				return err
			}
			chatID = run.ChatID
			cur, ok, err := openDelivery(ctx, q, runID, d.ID)
			if err != nil || !ok {
				return err
			}
			d = cur
			now := s.nowMS()
			if run.State == store.RunFailed {
				return nil // kept pending: resuming the run delivers it
			}
			if store.RunEnded(run.State) {
				d.State, d.LastError = store.DeliveryFailed, "the run had "+run.State
				d.UpdatedAt = now
				return q.UpdateDelivery(ctx, d)
			}
			done, err := q.MessageForDelivery(ctx, d.ID)
			if err != nil {
				return err
			}
			if !done {
				if _, err := q.InsertMessage(ctx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleUser,
					Content: d.Payload, RequestID: nullString(d.RequestID), DeliveryID: nullInt(d.ID), ForModel: true, CreatedAt: now}); err != nil {
					return err
				}
			}
			delivered = true
			d.State, d.LastError, d.UpdatedAt = store.DeliveryDelivered, "", now
			if err := q.UpdateDelivery(ctx, d); err != nil {
				return err
			}
			if run.State == store.RunWaitingInput {
				run.State, run.UpdatedAt = store.RunRunning, now
				return q.UpdateRun(ctx, run)
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		crashPoint(CrashDeliveryWritten)
		if delivered {
			n++
		}
		s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RunID: runID, RequestID: d.RequestID})
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	}
	return n, nil
}

// openDelivery re-reads a delivery that must still be pending or unknown.
func openDelivery(ctx context.Context, q store.Q, runID string, id int64) (store.Delivery, bool, error) {
	ds, err := q.RunDeliveries(ctx, runID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return store.Delivery{}, false, err
	}
	for _, d := range ds {
		if d.ID == id {
			return d, true, nil
		}
	}
	return store.Delivery{}, false, nil
}

func (h runHost) RecordTurn(ctx context.Context, runID string, msg agent.Message, seen int64) error {
	s := h.s
	var chatID string
	err := s.st.Write(ctx, func(q store.Q) error {
		run, err := q.GetRun(ctx, runID)
		if err != nil {
			return err
		}
		chatID = run.ChatID
		if run.State != store.RunRunning {
			return agent.ErrRunEnded
		}
		now := s.nowMS()
		m := store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleAssistant,
			Content: msg.Content, Visible: msg.Content != "", ForModel: true, CreatedAt: now}
		if len(msg.ToolCalls) > 0 {
			m.ToolCalls = nullString(mustJSON(msg.ToolCalls))
		}
		if _, err := q.InsertMessage(ctx, m); err != nil {
			return err
		}
		if seen > 0 {
			// Messages the user sent while the model answered come after its
			// turn, as the model (and the user) experienced them.
			if err := q.MoveAfter(ctx, runID, seen); err != nil {
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
		if err := q.TouchChat(ctx, run.ChatID, now); err != nil {
			return err
		}
		return q.UpdateRun(ctx, run)
	})
	if err == nil {
		crashPoint(CrashTurnRecorded)
		s.broker.Publish(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
	}
	return err
}

func (h runHost) RecordToolResult(ctx context.Context, runID string, call agent.ToolCall, result json.RawMessage) error {
	s := h.s
	err := s.st.Write(ctx, func(q store.Q) error {
		run, err := q.GetRun(ctx, runID)
		if err != nil {
			return err
		}
		now := s.nowMS()
		if _, err := q.InsertMessage(ctx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleTool,
			Content: string(result), ToolCallID: call.ID, ToolName: call.Name, ForModel: true, CreatedAt: now}); err != nil {
			return err
		}
		run.Step++
		run.UpdatedAt = now
		return q.UpdateRun(ctx, run)
	})
	if err == nil {
		crashPoint(CrashToolResultRecorded)
	}
	return err
}

func (h runHost) Settle(ctx context.Context, runID string, final bool) (string, error) {
	s := h.s
	var state, chatID string
	err := s.st.Write(ctx, func(q store.Q) error {
		run, err := q.GetRun(ctx, runID)
		if err != nil {
			return err
		}
		chatID, state = run.ChatID, run.State
		if run.State != store.RunRunning {
			return nil
		}
		ds, err := q.RunDeliveries(ctx, runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil || len(ds) > 0 {
			return err // something new for the model: keep running
		}
		// A message the user sent while the model was answering is newer
		// than what its turn read: the model must answer it too.
		if unread, err := q.UnreadUserMessages(ctx, runID, run.Seen); err != nil || unread {
			return err
		}
		pend, err := q.ListRequests(ctx, store.RequestFilter{RunID: runID, State: store.ReqPending, Limit: 1})
		if err != nil {
			return err
		}
		switch {
		case len(pend) > 0:
			state = store.RunWaitingInput
		case final:
			state = store.RunSucceeded
			res, err := runResult(ctx, q, runID)
			if err != nil {
				return err
			}
			run.Result = nullString(res)
		default:
			return nil
		}
		run.State, run.UpdatedAt = state, s.nowMS()
		return q.UpdateRun(ctx, run)
	})
	if err == nil {
		crashPoint(CrashSettled)
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	}
	return state, err
}

// runResult merges the values of the run's answered requests, in order.
func runResult(ctx context.Context, q store.Q, runID string) (string, error) {
	rs, err := q.ListRequests(ctx, store.RequestFilter{RunID: runID, State: store.ReqAnswered})
	if err != nil {
		return "", err
	}
	out := map[string]any{}
	for _, r := range rs {
		a, err := q.GetAnswer(ctx, r.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return "", err
		}
		for k, v := range decodeValues(a.Values) {
			out[k] = v
		}
	}
	return mustJSON(out), nil
}

func (h runHost) Fail(ctx context.Context, runID string, reason string) error {
	s := h.s
	var chatID string
	err := s.st.Write(ctx, func(q store.Q) error {
		run, err := q.GetRun(ctx, runID)
		if err != nil {
			return err
		}
		chatID = run.ChatID
		if store.RunEnded(run.State) {
			return nil
		}
		now := s.nowMS()
		run.State, run.Error, run.UpdatedAt = store.RunFailed, reason, now
		if err := q.UpdateRun(ctx, run); err != nil {
			return err
		}
		_, err = q.InsertMessage(ctx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleNotice,
			Content: "The run failed: " + reason, Visible: true, CreatedAt: now})
		return err
	})
	if err == nil {
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
		s.broker.Publish(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
	}
	return err
}
