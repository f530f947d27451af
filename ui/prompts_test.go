package ui

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/ui/dialog"
)

// A server's prompts are the composer's commands: /ev lists
// server-everything's, tab chooses, enter opens the form of the chosen
// one's arguments, the server's completions are offered as the user
// types (ctrl+e takes one, and the first argument narrows the second),
// and moving on from the last field sends the prompt's messages to the
// agent, headed by the prompt. A prompt without arguments is sent at once.
func TestPromptCommandsOfEverything(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	cfg := mcp.Config{Path: "/home/me/mcp.json", Servers: []mcp.ServerConfig{{Name: "everything", Type: mcp.TypeStdio,
		Command: command, Args: args, Shown: "server-everything", Timeout: 20 * time.Second}}}
	k := newKit(t, withMCP(t, cfg))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := k.svc.WaitMCP(ctx); err != nil {
		t.Fatal(err)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	k.run()
	k.runes("/ev")
	k.waitFor("› /everything:args-prompt", "A prompt with two arguments", "/everything:simple-prompt")
	k.key(tea.KeyTab)
	k.waitFor("› /everything:completable-prompt")
	k.key(tea.KeyEnter)
	k.waitFor("Choose the department.", "ctrl+e take the suggestion")
	k.runes("S")
	k.waitFor("S|ales")
	k.key(tea.KeyCtrlE)
	k.key(tea.KeyEnter)
	k.runes("E")
	k.waitFor("E|ve")
	k.key(tea.KeyCtrlE)
	k.key(tea.KeyEnter)
	k.waitFor("Prompt everything:completable-prompt (department: Sales, name: Eve)", "Please promote Eve to the head of the Sales team.")

	k.runes("/simple")
	k.waitFor("› /everything:simple-prompt")
	k.key(tea.KeyEnter)
	k.waitFor("This is a simple prompt without arguments.", "Message the agent") // the composer emptied
}
