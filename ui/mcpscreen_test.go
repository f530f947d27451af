package ui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// A tool row is folded to a line of arguments and a line of result; ctrl+t
// unfolds every row (arguments pretty-printed, the result whole) and
// folds them again.
func TestToolRowsFoldAndUnfold(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask(`call fake.peek {"city":"Lyon","days":[1,2]}`) // auto-approved
	k.load(sent.ChatID)
	f := frameOf(k.m)
	if !strings.Contains(f, `⚙ fake · peek  {"city":"Lyon","days":[1,2]}`) || !strings.Contains(f, "⎿ ✓ done") ||
		!strings.Contains(f, "sunny") {
		t.Fatalf("the folded row does not show the call:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyCtrlT})
	f = frameOf(k.m)
	for _, want := range []string{`"city": "Lyon",`, `"days": [`, "⎿ ✓ done"} {
		if !strings.Contains(f, want) {
			t.Errorf("the unfolded row does not show %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, `peek  {"city":"Lyon"`) {
		t.Errorf("the unfolded row still shows the folded arguments:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyCtrlT})
	if f = frameOf(k.m); !strings.Contains(f, `peek  {"city":"Lyon","days":[1,2]}`) {
		t.Fatalf("ctrl+t again did not fold the row:\n%s", f)
	}
}

// Text a server or the model sends is neutralised in a row and on the card.
func TestToolRowsAndCardsNeutraliseControls(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask("call fake.echo {\"message\":\"\\u001b[2Jgone\\u202eevil\"}")
	k.load(sent.ChatID)
	k.settleFocus()
	if f := frameOf(k.m); strings.Contains(f, "\x1b[2J") || strings.Contains(f, "\u202e") {
		t.Fatalf("the card draws raw controls: %q", f)
	}
	k.hit(letter('y'))
	k.hit(tea.KeyMsg{Type: tea.KeyCtrlT})
	if f := frameOf(k.m); strings.Contains(f, "\x1b[2J") || strings.Contains(f, "\u202e") || !strings.Contains(f, "gone") {
		t.Fatalf("the row draws raw controls: %q", f)
	}
}

// The servers dialog lists each server's state, protocol, tools with what
// the server says of them, and its log; the configuration's problems
// above them, said once on the notice line too. The status line counts
// the connected servers.
func TestServersDialogAndCount(t *testing.T) {
	cfg := mcp.Config{Path: "/home/me/mcp.json", Servers: []mcp.ServerConfig{
		fakeServer(t), {Name: "old", Type: mcp.TypeStdio, Command: "legacy", Shown: "legacy", Disabled: true},
		{Name: "gone", Type: mcp.TypeStdio, Command: "/nonexistent/server", Shown: "/nonexistent/server", Timeout: 5 * time.Second}},
		Problems: []mcp.Problem{{File: "/home/me/mcp.json", Pointer: "/mcpServers/bad/url", Reason: `"ftp://x" is not an http or https URL`}}}
	k := newKit(t, withMCP(t, cfg))
	if err := k.svc.WaitMCP(t.Context()); err != nil {
		t.Fatal(err)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	f := frameOf(k.m)
	if !strings.Contains(f, "offline · 1/2 MCP") || !strings.Contains(f, "/mcpServers/bad/url") {
		t.Fatalf("the status line does not count the servers or tell the problem:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	f = frameOf(k.m)
	for _, want := range []string{"MCP servers — /home/me/mcp.json", "1 problem in the configuration",
		`/home/me/mcp.json: /mcpServers/bad/url: "ftp://x" is not an http or https URL`,
		"fake  connected · protocol 2026-07-28", "http: http://127.0.0.1/fake", "4 tools:",
		"echo — Echoes back the message", "peek — Reads the weather  [read-only, runs without asking]",
		"gone  failed:", "old  disabled in the configuration", "log: "} {
		if !strings.Contains(f, want) {
			t.Errorf("the servers dialog does not show %q:\n%s", want, f)
		}
	}
	k.hit(tea.KeyMsg{Type: tea.KeyEsc})
	if _, ok := k.m.dialogs.Screen(); ok {
		t.Fatal("esc did not close the servers dialog")
	}
	// Said once: a second reading does not say it again.
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	if strings.Contains(frameOf(k.m), "/mcpServers/bad/url") {
		t.Fatal("the problem was said on the notice line again")
	}
}

// Without servers the status line says nothing of MCP, and the dialog
// says where followup looks for a configuration.
func TestNoServersConfigured(t *testing.T) {
	k := newKit(t)
	k.load("")
	if f := frameOf(k.m); strings.Contains(f, "MCP") {
		t.Fatalf("the status line speaks of MCP with none configured:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	if f := frameOf(k.m); !strings.Contains(f, "No MCP server is configured.") || !strings.Contains(f, "--mcp-config") {
		t.Fatalf("the servers dialog does not say where to configure:\n%s", f)
	}
}

// The servers start after the first frame: the chat's arrival starts
// nothing; a moment later the start does.
func TestServersStartAfterTheFirstFrame(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusTeapot)
	}))
	t.Cleanup(ts.Close)
	cfg := mcp.Config{Path: "t", Servers: []mcp.ServerConfig{{Name: "s", Type: mcp.TypeHTTP, URL: ts.URL, Shown: ts.URL, Timeout: 2 * time.Second}}}
	k := newKit(t, withMCP(t, cfg))
	_, cmd := k.m.Update(serviceMsg{k.svc, loadChat(k.svc, "", prep{})()})
	if hits.Load() != 0 || k.m.mcp.started {
		t.Fatal("the servers started before the first frame")
	}
	var start bool
	for _, msg := range cmdtest.RunTimers(cmd) { // the start waits a frame
		_, start = msg.(startMCPMsg)
		if start {
			break
		}
	}
	if !start {
		t.Fatal("nothing starts the servers after the first frame")
	}
	if hits.Load() != 0 {
		t.Fatal("the servers started before the start")
	}
	k.apply(func() tea.Msg { return startMCPMsg{} })
	deadline := time.Now().Add(5 * time.Second)
	for hits.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the start did not reach the server")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
