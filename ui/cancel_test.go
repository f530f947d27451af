package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// The cancel confirmation names who is told and what: followup's agent
// goes on without the answer; an MCP client reads the question as
// cancelled. (A server's question is declined: serverform_test.go.)
func TestCancelConfirmationSaysWhoIsTold(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	ctx := context.Background()
	agentChat := k.ask("Check deployment").ChatID
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: "Claude Code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	defer ss.End(ctx)
	var res struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"k","reason":"To tag the release",
		"source":{"kind":"dynamic","definition":{"title":"Release","fields":[{"name":"version","type":"text"}]}}}`)), &res)
	r, err := k.svc.Request(ctx, res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		chatID, want, done, not string
	}{
		{agentChat, "the agent is told; the task goes on without it.",
			"Question cancelled — the agent was told and goes on without it.", "Claude Code reads it"},
		{r.ChatID, "“Release” is withdrawn: Claude Code reads it as cancelled (input_cancelled)",
			"Question cancelled — Claude Code reads it as cancelled.", "the agent is told"},
	} {
		deliver(k.m, k.m.do(dialog.OpenChat{ChatID: c.chatID}))
		k.m.setFocus(focusForm)
		k.hit(tea.KeyMsg{Type: tea.KeyCtrlX})
		if f := frameOf(k.m); !strings.Contains(f, c.want) || strings.Contains(f, c.not) {
			t.Fatalf("the confirmation does not say %q:\n%s", c.want, f)
		}
		_, cmd := k.m.Update(letter('y'))
		said := ""
		for _, msg := range cmdtest.Run(cmd) {
			_, next := k.m.Update(msg)
			if _, ok := msg.(doneMsg); ok {
				said = k.m.notice.Text()
			}
			k.apply(next)
		}
		if said != c.done {
			t.Fatalf("after cancelling: %q, want %q", said, c.done)
		}
	}
}
