package chat

import (
	"context"
	"strings"
	"testing"

	"followup/store"
)

// TestInvalidProposalIsRefusedAndExplained: values a chat message gives
// that are invalid for the request are refused to the agent with
// INPUT_REPLY_INVALID; no proposal is stored or shown, and the demo agent
// says what it could not use and why; the valid ones are proposed alone.
func TestInvalidProposalIsRefusedAndExplained(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := fxOpen(t, nil)
	sent, run := fxAsk(t, s, "", "Plan a trip")
	if run.State != store.RunWaitingInput {
		t.Fatalf("run = %s", run.State)
	}
	req := fxOnePending(t, s, sent.ChatID)
	lastReply := func() string {
		t.Helper()
		ms, _, err := s.TranscriptPage(ctx, sent.ChatID, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(ms) - 1; i >= 0; i-- {
			if ms[i].Role == store.RoleAssistant {
				return ms[i].Content
			}
		}
		return ""
	}

	fxAsk(t, s, sent.ChatID, "travelers: 40, start: tomorrow")
	if n := fxCount(t, s, `SELECT COUNT(*) FROM proposals`); n != 0 {
		t.Fatalf("%d proposals stored for invalid values", n)
	}
	v, _ := s.Request(ctx, req.ID)
	if len(v.Proposals) != 0 || v.State != store.ReqPending {
		t.Fatalf("request = %s, proposals %+v", v.State, v.Proposals)
	}
	reply := lastReply()
	for _, want := range []string{"start: tomorrow", "not a valid date", "travelers: 40", "at most 12"} {
		if !strings.Contains(reply, want) {
			t.Fatalf("the reply %q does not say %q", reply, want)
		}
	}
	if strings.Contains(reply, "confirm") {
		t.Fatalf("the reply claims a proposal: %q", reply)
	}
	res := toolResultsOf(t, s, sent.RunID, "input_resolve")
	if len(res) != 1 || !strings.Contains(res[0], `"INPUT_REPLY_INVALID"`) || !strings.Contains(res[0], `"/values/travelers"`) {
		t.Fatalf("input_resolve results: %v", res)
	}

	fxAsk(t, s, sent.ChatID, "destination: Oslo, travelers: 40")
	v, _ = s.Request(ctx, req.ID)
	if len(v.Proposals) != 1 || len(v.Proposals[0].Values) != 1 || v.Proposals[0].Values["destination"] != "Oslo" {
		t.Fatalf("proposals %+v", v.Proposals)
	}
	if reply := lastReply(); !strings.Contains(reply, "travelers: 40") || !strings.Contains(reply, "The rest (destination: Oslo) shows as a proposal if it fits") {
		t.Fatalf("after the valid part was proposed: %q", reply)
	}
	if run, _ := s.GetRun(ctx, sent.RunID); run.State != store.RunWaitingInput {
		t.Fatalf("with a proposal made the run is %s", run.State)
	}
}

// toolResultsOf lists the results of a run's calls to one tool, oldest first.
func toolResultsOf(t *testing.T, s *Service, runID, tool string) []string {
	t.Helper()
	ms, err := s.store.RunMessages(context.Background(), s.reader(), runID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		if m.Role == store.RoleTool && m.ToolName == tool {
			out = append(out, m.Content)
		}
	}
	return out
}
