package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"followup/forms/cmdtest"
	"followup/ui/dialog"
)

// A server's form says who asks and warns on a field that looks like a
// secret (and only there); answered, its values reach the server.
func TestServerFormSaysWhoAsksAndWarnsOnSecrets(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask("call fake.ask")
	k.load(sent.ChatID)
	k.settleFocus()
	k.hit(letter('y'))
	if k.m.pane.live == nil {
		t.Fatalf("no form for the server's question:\n%s", frameOf(k.m))
	}
	k.settleFocus()
	f := frameOf(k.m)
	if !strings.Contains(f, "asked by fake (MCP server)") || !strings.Contains(f, "Who should the report be sent as?") {
		t.Fatalf("the form does not say who asks and why:\n%s", f)
	}
	if n := strings.Count(f, "this looks like a secret"); n != 1 {
		t.Fatalf("%d secret warnings, want one, on the API token:\n%s", n, f)
	}
	name, token := strings.Index(f, "Your name"), strings.Index(f, "API token") // the schema's order
	warn := strings.Index(f, "this looks like a secret")
	if !(token < warn && warn < name) {
		t.Fatalf("the warning is not on the API token field:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t0k")})
	k.hit(tea.KeyMsg{Type: tea.KeyEnter})
	k.hit(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Ada")})
	k.hit(tea.KeyMsg{Type: tea.KeyEnter}) // the review
	if !showing[dialog.Review](k.m) {
		t.Fatalf("no review:\n%s", frameOf(k.m))
	}
	k.hit(tea.KeyMsg{Type: tea.KeyEnter})
	if f := frameOf(k.m); !strings.Contains(f, `accept {"api_token":"t0k","name":"Ada"}`) || !strings.Contains(f, "sent to fake: accept") {
		t.Fatalf("the server did not receive the answer:\n%s", f)
	}
}

// Cancelling a server's question declines it to the server, and says so.
func TestCancellingAServerQuestionDeclinesIt(t *testing.T) {
	k := newMCPKit(t)
	sent := k.ask("call fake.ask")
	k.load(sent.ChatID)
	k.settleFocus()
	k.hit(letter('y'))
	k.hit(tea.KeyMsg{Type: tea.KeyCtrlX})
	if f := frameOf(k.m); !strings.Contains(f, "Decline: tell fake no?") || !strings.Contains(f, "is declined: fake (MCP server) is told no") || strings.Contains(f, "the agent is told") {
		t.Fatalf("the confirmation does not say the server is told no:\n%s", f)
	}
	_, cmd := k.m.Update(letter('y'))
	seen := false
	for _, msg := range cmdtest.Run(cmd) {
		_, next := k.m.Update(msg)
		if _, ok := msg.(doneMsg); ok {
			seen = true
			if k.m.notice.Text() != "Declined: fake is told no, and the call goes on." {
				t.Fatalf("the line after cancelling says %q", k.m.notice.Text())
			}
		}
		k.apply(next)
	}
	if !seen {
		t.Fatal("y on the confirmation cancelled nothing")
	}
	if f := frameOf(k.m); !strings.Contains(f, "decline null") || !strings.Contains(f, "sent to fake: decline") {
		t.Fatalf("the server was not told decline:\n%s", f)
	}
}
