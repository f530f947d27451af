package composer

import (
	"fmt"
	"strings"

	"followup/forms"
	"followup/ui/style"
)

// Command is one command the composer completes after a /: an MCP
// server's prompt, server:prompt (docs/mcp.md).
type Command struct{ Name, Description string }

// commands are what the composer offers while its text is a / and the
// start of a command's name.
type commands struct {
	all    []Command
	choice int    // the one chosen among those that match
	text   string // the text the choice was made for
}

// shownCommands is the most the list shows at once.
const shownCommands = 5

// SetCommands sets the commands offered.
func (c *Model) SetCommands(all []Command) { c.cmds.all = all }

// Matching is the commands the text may complete: a single word after a
// / that starts a command's name, or the part after its server's name
// (/args finds everything:args-prompt).
func (c Model) Matching() []Command {
	v := c.Value()
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, " \t\n") {
		return nil
	}
	typed := v[1:]
	var out []Command
	for _, cmd := range c.cmds.all {
		_, name, _ := strings.Cut(cmd.Name, ":")
		if strings.HasPrefix(cmd.Name, typed) || strings.HasPrefix(name, typed) {
			out = append(out, cmd)
		}
	}
	return out
}

// choiceIn is the chosen command's place in match; a text changed since
// the choice starts again from the first.
func (c Model) choiceIn(match []Command) int {
	if c.cmds.text != c.Value() || c.cmds.choice >= len(match) {
		return 0
	}
	return c.cmds.choice
}

// MoveChoice chooses the next matching command (by 1) or the one before
// (-1), round the list.
func (c *Model) MoveChoice(by int) {
	match := c.Matching()
	if len(match) == 0 {
		return
	}
	c.cmds.choice = (c.choiceIn(match) + by + len(match)) % len(match)
	c.cmds.text = c.Value()
}

// Chosen is the command enter takes: the one chosen among those the text
// matches.
func (c Model) Chosen() (Command, bool) {
	match := c.Matching()
	if len(match) == 0 {
		return Command{}, false
	}
	return match[c.choiceIn(match)], true
}

// CommandsView draws the matching commands width wide, the chosen one
// marked, with their descriptions; "" when none matches.
func (c Model) CommandsView(width int) string {
	match := c.Matching()
	if len(match) == 0 {
		return ""
	}
	at := c.choiceIn(match)
	top := max(0, min(at-shownCommands/2, len(match)-shownCommands))
	var lines []string
	for i := top; i < min(len(match), top+shownCommands); i++ {
		line := "  /" + forms.SanitizeLine(match[i].Name)
		if i == at {
			line = style.Bold.Render("› /" + forms.SanitizeLine(match[i].Name))
		}
		if d := forms.PlainLine(match[i].Description); d != "" {
			line += "  " + style.Dim.Render(d)
		}
		lines = append(lines, style.Truncate(line, width))
	}
	if n := len(match); n > shownCommands {
		lines = append(lines, style.Dim.Render(fmt.Sprintf("  %d of %d prompts", at+1, n)))
	}
	return strings.Join(lines, "\n")
}
