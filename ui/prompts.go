package ui

import (
	"context"
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/chat"
	"followup/ui/composer"
	"followup/ui/dialog"
)

// The MCP servers' prompts are the composer's commands (docs/mcp.md):
// typed after a /, chosen from the list that takes the notice line's
// place, run with enter — at once, or after the form of their arguments.

// promptCommands are the commands the connected servers' prompts make.
func promptCommands(st mcp.Status) []composer.Command {
	var out []composer.Command
	for _, s := range st.Servers {
		for _, p := range s.Prompts {
			out = append(out, composer.Command{Name: p.Command(), Description: p.Description})
		}
	}
	return out
}

// commandList is the list of the commands the composer's text may
// complete, while the composer has the focus ("" when none).
func (m *model) commandList() string {
	if m.focus != focusComposer {
		return ""
	}
	return m.composer.CommandsView(m.width)
}

// runCommand runs the prompt chosen in the composer: sent at once when it
// takes no arguments, else once its form is filled in.
func (m *model) runCommand(c composer.Command) tea.Cmd {
	p, err := m.svc.MCPPrompt(c.Name)
	if err != nil {
		m.setErr("", err)
		return nil
	}
	if len(p.Arguments) == 0 {
		m.composer.Reset()
		return tea.Batch(m.sentComposer(m.cur.sendTo()), m.sendPrompt(p.Command(), nil))
	}
	def, names, err := chat.PromptForm(p)
	if err != nil {
		m.setErr("", err)
		return nil
	}
	m.composer.Reset()
	emptied := m.sentComposer(m.cur.sendTo())
	svc, command := m.svc, p.Command()
	d, init := dialog.NewPrompt(m.keys.Keys, command, def, names, func(arg string, args map[string]string) []string {
		given := maps.Clone(args)
		delete(given, arg)
		return svc.PromptCompletions(context.Background(), command, arg, args[arg], given)
	})
	return tea.Batch(emptied, m.open(d, false), init)
}

// sendPrompt sends a prompt with its arguments to the chat on screen, or
// to a new chat it makes. Refused, it comes back to the composer.
func (m *model) sendPrompt(command string, args map[string]string) tea.Cmd {
	m.tr.Follow()
	chatID := m.cur.sendTo()
	if m.cur.newChat {
		if m.start.creating {
			m.keepUnsent("/" + command)
			m.setStatus("The new chat is still being made: send the prompt again in a moment.", true)
			return nil
		}
		m.start.creating = true
	}
	svc := m.svc
	return func() tea.Msg {
		s, err := svc.SendPrompt(context.Background(), chatID, command, args, "")
		return sentMsg{sent: s, err: err, newChat: chatID == "", to: chatID, text: "/" + command}
	}
}
