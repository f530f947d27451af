package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// Answering an MCP client's question drives no run, and the screen stops
// showing one as busy.
func TestDriveWithoutARunEnds(t *testing.T) {
	k := newKit(t)
	k.m.driving = true
	msg, ok := driveRun(k.svc, "")().(driveDoneMsg)
	if !ok || msg.err != nil {
		t.Fatalf("driving no run: %#v", msg)
	}
	k.m.Update(msg)
	if k.m.driving {
		t.Error("the screen still shows a run going on")
	}
}

// A serve chat says who asks, takes no messages (and keeps what was
// typed), and says when its client is gone.
func TestServeChatOnScreen(t *testing.T) {
	k := newKit(t)
	ctx := context.Background()
	ss, err := k.svc.OpenServeSession(ctx, chat.ServeClient{Name: "Claude Code", Transport: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal(ss.Request(ctx, json.RawMessage(`{"requestKey":"k","reason":"To tag the release",
		"source":{"kind":"dynamic","definition":{"title":"Release","fields":[{"name":"version","type":"text"}]}}}`)), &res)
	r, err := k.svc.Request(ctx, res.RequestID)
	if err != nil {
		t.Fatal(err)
	}
	k.load(r.ChatID)
	view := k.m.View()
	for _, want := range []string{"asked by Claude Code", "To tag the release", "Claude Code asks here and reads only your answers", "Claude Code (MCP)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen does not say %q:\n%s", want, view)
		}
	}
	k.m.composer.SetValue("is 1.4 fine?")
	k.m.sendComposer()
	if !strings.Contains(k.m.notice.Text(), "reads only answers") || k.m.composer.Value() != "is 1.4 fine?" {
		t.Errorf("a message in a serve chat: status %q, composer %q", k.m.notice.Text(), k.m.composer.Value())
	}

	if err := k.svc.SaveDraft(ctx, chat.Draft{RequestID: r.ID, Revision: r.Revision, Values: map[string]any{"version": "1.4.2"}, Edited: true}); err != nil {
		t.Fatal(err)
	}
	ss.End(ctx)
	k.m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	k.load(r.ChatID)
	view = k.m.View()
	for _, want := range []string{"Claude Code is gone", "Claude Code disconnected", "you had typed: version: 1.4.2"} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen does not say %q after the client left:\n%s", want, view)
		}
	}
}
