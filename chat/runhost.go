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
	t := agent.Turn{ChatID: run.ChatID, State: run.State, ModelCalls: run.ModelCalls}
	// A new task in a chat still knows what was said before it.
	earlier, err := s.store.EarlierConversation(ctx, rd, run.ChatID, run.Seq, earlierContext)
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

// Deliver hands each pending or interrupted delivery to the run's history
// exactly once. The attempt is recorded first (state unknown); if the
// process dies before the message is written, the next Deliver finds the
// delivery unknown, checks the history, and delivers it once. Only the
// lease holder delivers, but a stop from another process may close a
// delivery at any time, so each step re-reads it inside its transaction.
func (h runHost) Deliver(ctx context.Context, runID string) (int, error) {
	s := h.s
	// A failed run keeps its deliveries pending until it is resumed.
	if run, err := s.store.GetRun(ctx, s.reader(), runID); err != nil || run.State == store.RunFailed {
		return 0, err
	}
	ds, err := s.store.RunDeliveries(ctx, s.reader(), runID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range ds {
		open := false
		err := s.db.Write(ctx, func(tx store.Handle) error {
			cur, ok, err := s.openDelivery(ctx, tx, runID, d.ID)
			if err != nil || !ok {
				return err
			}
			open, d = true, cur
			d.Attempts++
			d.State, d.UpdatedAt = store.DeliveryUnknown, s.nowMS()
			return s.store.UpdateDelivery(ctx, tx, d)
		})
		if err != nil {
			return n, err
		}
		if !open {
			continue
		}
		s.checkpoint(CrashDeliveryUnknown)
		var chatID string
		delivered := false
		err = s.db.Write(ctx, func(tx store.Handle) error {
			run, err := s.store.GetRun(ctx, tx, runID)
			if err != nil {
				return err
			}
			chatID = run.ChatID
			cur, ok, err := s.openDelivery(ctx, tx, runID, d.ID)
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
				return s.store.UpdateDelivery(ctx, tx, d)
			}
			done, err := s.store.MessageForDelivery(ctx, tx, d.ID)
			if err != nil {
				return err
			}
			if !done {
				if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleUser,
					Content: d.Payload, RequestID: nullString(d.RequestID), DeliveryID: nullInt(d.ID), ForModel: true, CreatedAt: now}); err != nil {
					return err
				}
			}
			delivered = true
			d.State, d.LastError, d.UpdatedAt = store.DeliveryDelivered, "", now
			if err := s.store.UpdateDelivery(ctx, tx, d); err != nil {
				return err
			}
			if run.State == store.RunWaitingInput {
				run.State, run.UpdatedAt = store.RunRunning, now
				return s.store.UpdateRun(ctx, tx, run)
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		s.checkpoint(CrashDeliveryWritten)
		if delivered {
			n++
		}
		s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RunID: runID, RequestID: d.RequestID})
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	}
	return n, nil
}

// openDelivery re-reads a delivery that must still be pending or unknown.
func (s *Service) openDelivery(ctx context.Context, tx store.Handle, runID string, id int64) (store.Delivery, bool, error) {
	ds, err := s.store.RunDeliveries(ctx, tx, runID, store.DeliveryPending, store.DeliveryUnknown)
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
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
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
	if err == nil {
		s.checkpoint(CrashTurnRecorded)
		s.broker.Publish(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
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
		now := s.nowMS()
		if _, err := s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleTool,
			Content: string(result), ToolCallID: call.ID, ToolName: call.Name, ForModel: true, CreatedAt: now}); err != nil {
			return err
		}
		run.Step++
		run.UpdatedAt = now
		return s.store.UpdateRun(ctx, tx, run)
	})
	if err == nil {
		s.checkpoint(CrashToolResultRecorded)
	}
	return err
}

func (h runHost) Settle(ctx context.Context, runID string, final bool) (string, error) {
	s := h.s
	var state, chatID string
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		chatID, state = run.ChatID, run.State
		if run.State != store.RunRunning {
			return nil
		}
		ds, err := s.store.RunDeliveries(ctx, tx, runID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil || len(ds) > 0 {
			return err // something new for the model: keep running
		}
		// A message the user sent while the model was answering is newer
		// than what its turn read: the model must answer it too.
		if unread, err := s.store.UnreadUserMessages(ctx, tx, runID, run.Seen); err != nil || unread {
			return err
		}
		pend, err := s.store.ListRequests(ctx, tx, store.RequestFilter{RunID: runID, State: store.ReqPending, Limit: 1})
		if err != nil {
			return err
		}
		waits := len(pend) > 0
		if waits && !final {
			// After its tools, the run waits only for a question it just
			// asked: the result of any other tool (a refused proposal, a
			// list, another server's tool) is the model's to read first.
			if waits, err = s.askedLastTurn(ctx, tx, runID); err != nil {
				return err
			}
		}
		switch {
		case waits:
			state = store.RunWaitingInput
		case final:
			state = store.RunSucceeded
			res, err := s.runResult(ctx, tx, runID)
			if err != nil {
				return err
			}
			run.Result = nullString(res)
		default:
			return nil
		}
		run.State, run.UpdatedAt = state, s.nowMS()
		return s.store.UpdateRun(ctx, tx, run)
	})
	if err == nil {
		s.checkpoint(CrashSettled)
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
	}
	return state, err
}

// askedLastTurn reports whether the run's newest model turn called
// input_request.
func (s *Service) askedLastTurn(ctx context.Context, tx store.Handle, runID string) (bool, error) {
	m, err := s.store.LastTurn(ctx, tx, runID)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	var calls []agent.ToolCall
	json.Unmarshal([]byte(m.ToolCalls.String), &calls)
	for _, c := range calls {
		if c.Name == "input_request" {
			return true, nil
		}
	}
	return false, nil
}

// runResult merges the values of the run's answered requests, in order.
func (s *Service) runResult(ctx context.Context, tx store.Handle, runID string) (string, error) {
	rs, err := s.store.ListRequests(ctx, tx, store.RequestFilter{RunID: runID, State: store.ReqAnswered})
	if err != nil {
		return "", err
	}
	out := map[string]any{}
	for _, r := range rs {
		a, err := s.store.GetAnswer(ctx, tx, r.ID)
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
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		chatID = run.ChatID
		if store.RunEnded(run.State) {
			return nil
		}
		now := s.nowMS()
		run.State, run.Error, run.UpdatedAt = store.RunFailed, reason, now
		if err := s.store.UpdateRun(ctx, tx, run); err != nil {
			return err
		}
		_, err = s.store.InsertMessage(ctx, tx, store.Message{ChatID: run.ChatID, RunID: nullString(runID), Role: store.RoleNotice,
			Content: "The run failed: " + reason, Visible: true, CreatedAt: now})
		return err
	})
	if err == nil {
		s.broker.Publish(Event{Kind: EvRun, ChatID: chatID, RunID: runID})
		s.broker.Publish(Event{Kind: EvMessage, ChatID: chatID, RunID: runID})
	}
	return err
}
