package chat

import (
	"context"
	"strings"
	"testing"

	"followup/agent/mcp"
	"followup/forms"
)

// A server's prompt is asked as a form of its arguments, refused without
// a required one, and sent as the user's message headed by the prompt.
func TestSendPromptOfEverything(t *testing.T) {
	s := fxEverything(t, mcp.TypeStdio, mcp.AutoApprove{})
	ctx := context.Background()
	p, err := s.MCPPrompt("/everything:args-prompt")
	if err != nil {
		t.Fatal(err)
	}
	def, names, err := PromptForm(p)
	if err != nil || len(def.Fields) != 2 || !def.Fields[0].Required || def.Fields[1].Required ||
		def.Fields[0].Description != "Name of the city" || def.Title != "/everything:args-prompt" || names != nil {
		t.Fatalf("PromptForm = %+v, %v, %v", def, names, err)
	}
	_, err = s.SendPrompt(ctx, "", "everything:args-prompt", map[string]string{"state": "CA", "town": "x"}, "")
	if e := fxCode(t, err, CodeInvalidArgument); len(e.Details["problems"].([]forms.Problem)) != 2 {
		t.Fatalf("problems %+v", e.Details)
	}
	fxCode(t, func() error { _, err := s.SendPrompt(ctx, "", "everything:nope", nil, ""); return err }(), CodeNotFound)
	sent, err := s.SendPrompt(ctx, "", "everything:args-prompt", map[string]string{"city": "Paris"}, "")
	if err != nil {
		t.Fatal(err)
	}
	msgs, _, err := s.TranscriptPage(ctx, sent.ChatID, 0, 10)
	if err != nil || len(msgs) == 0 {
		t.Fatal(msgs, err)
	}
	if got := msgs[0].Content; got != "Prompt everything:args-prompt (city: Paris)\n\nWhat's weather in Paris?" {
		t.Fatalf("message %q", got)
	}
	if got := s.PromptCompletions(ctx, "everything:completable-prompt", "name", "", map[string]string{"department": "Support"}); strings.Join(got, ",") != "John,Kim,Lee" {
		t.Fatalf("completions %q", got)
	}
}
