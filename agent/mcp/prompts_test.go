package mcp

import (
	"context"
	"slices"
	"testing"
	"time"
)

// server-everything's prompts are listed with their arguments, got with
// them as text, and its completions narrow an argument by another's value.
func TestEverythingPrompts(t *testing.T) {
	m := everything(t, TypeStdio, nil)
	prompts := m.Status().Servers[0].Prompts
	var args Prompt
	for _, p := range prompts {
		if p.Name == "args-prompt" {
			args = p
		}
	}
	if args.Command() != "everything:args-prompt" || len(args.Arguments) != 2 || !args.Arguments[0].Required ||
		args.Arguments[0].Name != "city" || args.Arguments[1].Required || args.Description == "" {
		t.Fatalf("args-prompt = %+v (all: %+v)", args, prompts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	text, err := m.GetPrompt(ctx, "everything", "args-prompt", map[string]string{"city": "Paris"}, 1000)
	if err != nil || text != "What's weather in Paris?" {
		t.Fatalf("GetPrompt = %q, %v", text, err)
	}
	vals, err := m.Complete(ctx, "everything", "completable-prompt", "name", "", map[string]string{"department": "Sales"})
	if err != nil || !slices.Equal(vals, []string{"David", "Eve", "Frank"}) {
		t.Fatalf("Complete = %q, %v", vals, err)
	}
	vals, err = m.Complete(ctx, "everything", "completable-prompt", "department", "Ma", nil)
	if err != nil || !slices.Equal(vals, []string{"Marketing"}) {
		t.Fatalf("Complete = %q, %v", vals, err)
	}
	if _, err := m.GetPrompt(ctx, "nobody", "x", nil, 1000); err == nil {
		t.Fatal("a prompt of an unknown server was got")
	}
}
