package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/ui/dialog"
)

// With server-everything: a tool row with resource links says where to
// attach them; f2 lists the server's resources and the chat's links, ↑/↓
// picks one and enter attaches it; the composer names it, backspace with
// no text takes it off; sent, the message names what was attached and the
// agent's reply says what it read.
func TestAttachAResourceFromTheServersList(t *testing.T) {
	command, args := mcptest.Find(t).EverythingStdio(t)
	cfg := mcp.Config{Path: "test", Servers: []mcp.ServerConfig{{Name: "everything", Type: mcp.TypeStdio, Command: command,
		Args: args, Shown: "server-everything", Timeout: 20 * time.Second, AutoApprove: mcp.AutoApprove{Tools: []string{"get-resource-links"}}}}}
	k := newKit(t, withMCP(t, cfg))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := k.svc.WaitMCP(ctx); err != nil {
		t.Fatal(err)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	sent := k.ask(`call everything.get-resource-links {"count": 2}`)
	k.load(sent.ChatID)
	if f := frameOf(k.m); !strings.Contains(f, "2 resource links: f2 lists them to attach to your next message") {
		t.Fatalf("the tool row does not say where its links are attached:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	f := frameOf(k.m)
	for _, want := range []string{"resources:", "▸ architecture.md demo://resource/static/document/architecture.md  [text/markdown]",
		"↑/↓ pick a resource · enter attach it to your next message"} {
		if !strings.Contains(f, want) {
			t.Fatalf("the servers list does not show %q:\n%s", want, f)
		}
	}
	k.hit(tea.KeyMsg{Type: tea.KeyDown})
	k.hit(tea.KeyMsg{Type: tea.KeyDown})
	k.hit(tea.KeyMsg{Type: tea.KeyEnter})
	chip := "📎 features.md (everything · demo://resource/static/document/features.md, text/markdown)"
	if f := frameOf(k.m); showing[dialog.Servers](k.m) || !strings.Contains(f, chip) {
		t.Fatalf("enter did not attach features.md:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyBackspace})
	if f := frameOf(k.m); strings.Contains(f, chip) {
		t.Fatalf("backspace with no text did not take the attachment off:\n%s", f)
	}

	// The chat's links come last: the last one is Text Resource 2.
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	k.hit(tea.KeyMsg{Type: tea.KeyEnd})
	if f := frameOf(k.m); !strings.Contains(f, "Linked by this chat's tool results") {
		t.Fatalf("the servers list does not list the chat's links:\n%s", f)
	}
	for range 40 {
		k.hit(tea.KeyMsg{Type: tea.KeyDown})
	}
	if f := frameOf(k.m); !strings.Contains(f, "▸ Text Resource 2 demo://resource/dynamic/text/2") {
		t.Fatalf("the last link is not picked, or not in view:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyEnter})
	for _, r := range "Read it" {
		k.hit(letter(r))
	}
	k.hit(tea.KeyMsg{Type: tea.KeyEnter})
	if _, err := k.svc.Drive(ctx, k.onlyRun().ID); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	f = frameOf(k.m)
	for _, want := range []string{"Read it", "📎 Text Resource 2 (everything · demo://resource/dynamic/text/2, text/plain)",
		"I read the resource you attached, demo://resource/dynamic/text/2"} {
		if !strings.Contains(f, want) {
			t.Fatalf("the transcript does not show %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, "(⌫ takes it off)") {
		t.Fatalf("the attachment stayed in the composer after sending:\n%s", f)
	}
}

// Many attachments take three lines above the composer at most; the
// screen stays its height.
func TestManyAttachmentsTakeThreeLines(t *testing.T) {
	k := newKit(t)
	k.load("")
	for i := range 5 {
		k.m.composer.Attach(mcp.Resource{Server: "s", URI: fmt.Sprintf("demo://r/%d", i), Name: fmt.Sprintf("r%d", i)})
	}
	f := frameOf(k.m)
	if !strings.Contains(f, "📎 3 more") || !strings.Contains(f, "📎 r4 (s · demo://r/4, no type given)  (⌫ takes it off)") ||
		strings.Contains(f, "r2 (") || strings.Count(f, "\n") != 29 {
		t.Fatalf("five attachments:\n%s", f)
	}
}
