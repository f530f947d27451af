package ui

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"followup/agent/mcp"
	"followup/ui/dialog"
)

// The MCP screens, pinned (no colour, a fixed clock, a fixed database
// name): the approval card, the consent card of a link, a server's form
// with a field that looks like a secret, and the servers dialog.
func TestGoldenMCPScreens(t *testing.T) {
	for _, sc := range []struct {
		name  string
		setup func(k *kit)
	}{
		{"approval", func(k *kit) {
			k.load(k.ask(`call fake.echo {"message":"hi","tags":["a","b"]}`).ChatID)
			k.settleFocus()
		}},
		{"url_consent", func(k *kit) {
			k.m.mcp.opener = "/usr/bin/xdg-open"
			k.load(k.ask("call fake.link").ChatID)
			k.settleFocus()
		}},
		{"server_form", func(k *kit) {
			k.load(k.ask("call fake.ask").ChatID)
			k.settleFocus()
			k.hit(letter('y'))
			k.settleFocus()
		}},
		{"servers", func(k *kit) {
			st := k.svc.MCPStatus()
			st.Problems = []string{`/home/me/.config/followup/mcp.json: /mcpServers/remote/url: "ftp://host/x" is not an http or https URL`}
			st.Servers = append(st.Servers, mcp.ServerStatus{Name: "old", Type: mcp.TypeStdio, Target: "legacy-server",
				State: mcp.StateDisabled, Tools: []mcp.Tool{}})
			for i := range st.Servers {
				st.Servers[i].Log = "/home/me/.local/state/followup/mcp-" + st.Servers[i].Name + ".log"
				st.Servers[i].LogTail = []string{"2026-01-02T03:04:05Z followup: connected", "2026-01-02T03:04:06Z info db: opened \x1b[31mred"}
			}
			k.m.Update(dialog.ServerStatus{Status: st})
			k.hit(tea.KeyMsg{Type: tea.KeyF2})
		}},
	} {
		for _, size := range []struct{ w, h int }{{100, 30}, {50, 15}} {
			name := fmt.Sprintf("mcp_%s_%dx%d", sc.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				k := newMCPKit(t, withClock)
				k.m.start.dbPath = "followup.db"
				k.m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
				sc.setup(k)
				k.m.setStatus("", false)
				golden.RequireEqual(t, []byte(frameOf(k.m)))
			})
		}
	}
}
