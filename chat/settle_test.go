package chat_test

import (
	"context"
	"encoding/json"
	"testing"

	"followup/agent"
	"followup/chat"
	"followup/store"
)

// TestToolResultsAreReadBeforeWaiting: with a question open, a turn that
// only reads (input_list) or is refused is followed by another model call —
// the model reads what its tools returned — while a turn that asked a
// question, or whose proposal was taken, leaves the run waiting for the
// user at once.
func TestToolResultsAreReadBeforeWaiting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	call := func(name, args string) agent.Message {
		return agent.Message{ToolCalls: []agent.ToolCall{{ID: "c_" + name, Name: name, Arguments: json.RawMessage(args)}}}
	}
	var reqID string
	p := &scripted{}
	p.turn = func(n int) agent.Message {
		switch n {
		case 1:
			return call("input_request", askArgs("a"))
		case 2:
			return call("input_list", `{}`)
		case 3:
			return agent.Message{Content: "I see the question is still open."}
		case 4:
			return call("input_resolve", `{"requestId":"`+reqID+`","values":{"v":"from the chat"}}`)
		}
		return agent.Message{Content: "unexpected call"}
	}
	s := openWith(t, p, chat.Policy{})
	sent, err := s.Send(ctx, "", "Start", "")
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Drive(ctx, sent.RunID)
	if err != nil || run.State != store.RunWaitingInput || p.calls.Load() != 1 {
		t.Fatalf("after asking: %s, %d calls, %v", run.State, p.calls.Load(), err)
	}
	pend, _ := s.Pending(ctx, sent.ChatID)
	reqID = pend[0].ID
	if _, err := s.Send(ctx, sent.ChatID, "what is open?", ""); err != nil {
		t.Fatal(err)
	}
	if run, err = s.Drive(ctx, sent.RunID); err != nil || run.State != store.RunWaitingInput || p.calls.Load() != 3 {
		t.Fatalf("after a read: %s, %d calls (want the list read by a third), %v", run.State, p.calls.Load(), err)
	}
	if _, err := s.Send(ctx, sent.ChatID, "it is from the chat", ""); err != nil {
		t.Fatal(err)
	}
	if run, err = s.Drive(ctx, sent.RunID); err != nil || run.State != store.RunWaitingInput || p.calls.Load() != 4 {
		t.Fatalf("after a proposal: %s, %d calls (want no call after it), %v", run.State, p.calls.Load(), err)
	}
	if v, _ := s.Request(ctx, reqID); len(v.Proposals) != 1 {
		t.Fatalf("proposals %+v", v.Proposals)
	}
}
