package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
	"followup/ui/termtest"
)

// startWithEverything runs the chat screen on db in a w×h terminal with a
// Claude Code style .mcp.json naming server-everything (installed by npm
// ci; fails under CI=true when missing), and waits for it to connect.
func startWithEverything(t *testing.T, db string, w, h int) *termtest.Term {
	t.Helper()
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, ".mcp.json")
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": command, "args": args}}})
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := termtest.Start(t, w, h, fmt.Sprintf("exec env FOLLOWUP_PROVIDER=offline TERM=xterm-256color XDG_STATE_HOME=%s %s --db %s --mcp-config %s",
		filepath.Join(dir, "state"), termtest.Binary(t), db, cfg))
	tm.WaitFor("1/1 MCP")
	return tm
}

// pendingApprovals counts the approvals pending in db, as the CLI lists
// them.
func pendingApprovalsIn(t *testing.T, db string) int {
	t.Helper()
	as, _ := cli(t, db, "pending")["approvals"].([]any)
	return len(as)
}

// Against server-everything, as a user types it: the echo call arrives as
// an approval card while the user types on — none of those keys allows it
// — then y allows it and the transcript shows the call and the reply. The
// 13-field elicitation is answered through the form and the server's own
// account of what it received is the reply.
func TestTerminalEverythingApprovalAndElicitation(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startWithEverything(t, db, 100, 30)
	tm.Type(`call everything.echo {"message":"hi"}`)
	tm.Keys("Enter")
	// Typing on through the card's arrival, with letters that are its keys.
	tm.TypeSlowly("yay any", human)
	tm.WaitFor("Allow everything (MCP server) to run echo?", `"message": "hi"`)
	tm.TypeSlowly("ay", human)
	time.Sleep(time.Second) // a pause with text in the composer
	tm.TypeSlowly("y", human)
	tm.WaitFor("› yay anyayy", "ctrl+f to decide")
	if n := pendingApprovalsIn(t, db); n != 1 {
		t.Fatalf("%d approvals pending after typing for the composer, want 1", n)
	}
	tm.Keys("C-u")                                          // the composer emptied, then a pause: the card takes the focus
	tm.WaitFor("║ y allow once · a for this chat · n deny") // the focused card's frame and keys
	time.Sleep(500 * time.Millisecond)                      // past the moment a key is still the composer's
	tm.Keys("y")
	tm.WaitFor("⚙ everything · echo", "✓ done", "Echo: hi")
	if n := pendingApprovalsIn(t, db); n != 0 {
		t.Fatalf("%d approvals pending after y", n)
	}

	tm.Type("call everything.trigger-elicitation-request")
	tm.Keys("Enter")
	tm.WaitFor("Allow everything (MCP server) to run trigger-elicitation-request?", "║ y allow once")
	time.Sleep(500 * time.Millisecond)
	tm.Keys("y")
	// The form takes the focus by itself (the composer is empty): its frame
	// turns round-cornered.
	tm.WaitFor("asked by everything (MCP server)", "┃ String *", "╭")
	for _, step := range []struct{ text, next string }{
		{"Ada Lovelace", "┃ Boolean"}, {"", "┃ String with default"}, {"", "┃ String with email format"},
		{"ada@example.org", "┃ String with uri format"}, {"https://example.org/ada", "┃ String with date format"},
		{"1815-12-10", "┃ Integer"}, {"", "┃ Number in range"}, {"", "┃ Untitled Single Select Enum"},
		{"", "┃ Untitled Multiple Select Enum"}, {"", "┃ Titled Single Select Enum"},
		{"", "┃ Titled Multiple Select Enum"}, {"", "┃ Legacy Titled"}, {"", "Review before sending"},
	} {
		if step.text != "" {
			tm.Type(step.text)
		}
		tm.Keys("Enter")
		tm.WaitFor(step.next)
	}
	tm.WaitFor("String: Ada Lovelace", "String with date format: 1815-12-10")
	tm.Keys("Enter")
	// The server's own account of what it received, at the end of its reply.
	tm.WaitFor(`"action": "accept"`, `"name": "Ada Lovelace"`, `"email": "ada@example.org"`,
		`"homepage": "https://example.org/ada"`, `"birthdate": "1815-12-10"`, `"integer": 42`)
	tm.Keys("PPage")
	tm.WaitFor("User provided the requested information")
}

// At 50×15 the card still shows every decision key and scrolls; deny
// tells the model.
func TestTerminalEverythingApprovalNarrow(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startWithEverything(t, db, 50, 15)
	tm.Type(`call everything.echo {"message":"a longer message that wraps in the card"}`)
	tm.Keys("Enter")
	tm.WaitFor("Allow everything (MCP server) to", "║ y allow once · a for this chat · n deny")
	time.Sleep(500 * time.Millisecond)
	tm.Keys("n")
	tm.WaitFor("denied by you")
	if n := pendingApprovalsIn(t, db); n != 0 {
		t.Fatalf("%d approvals pending after n", n)
	}
}

// server-everything's long-running operation reports its progress on the
// call's row while it runs; the done row no longer shows it.
func TestTerminalEverythingProgress(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	tm := startWithEverything(t, db, 100, 30)
	tm.Type(`call everything.trigger-long-running-operation {"duration":6,"steps":3}`)
	tm.Keys("Enter")
	tm.WaitFor("║ y allow once")
	time.Sleep(500 * time.Millisecond)
	tm.Keys("y")
	tm.WaitFor("running · 1/3")
	tm.WaitFor("running · 2/3")
	tm.WaitFor("✓ done", "Long running operation completed")
	if f := tm.Screen(); strings.Contains(f, "· 3/3") {
		t.Fatalf("the done row still shows progress:\n%s", f)
	}
}
