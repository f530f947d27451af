package dialog

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
	"followup/ui/style"
)

// PromptKeys apply on a prompt's form; the form handles all but Close
// (Complete takes a server's suggestion).
type PromptKeys struct{ Next, Prev, Complete, Close key.Binding }

// Prompt asks the arguments of an MCP server's prompt (docs/mcp.md) as a
// followup form built from them, the server's completions offered as the
// user types. Moving on from the last field sends the prompt (SendPrompt)
// unless a required argument is empty; esc closes it and sends nothing.
// The form's values live in the heap (forms.Live): copies share them.
type Prompt struct {
	keys    PromptKeys
	command string            // server:prompt
	def     forms.Definition  // the form of its arguments
	names   map[string]string // field names that differ from the arguments'
	live    *forms.Live
	box     paneBox
}

// NewPrompt opens the form of a prompt's arguments (chat.PromptForm);
// suggest offers a server's completions for a field as it is typed, given
// every field's text by argument name.
func NewPrompt(keys Keys, command string, def forms.Definition, names map[string]string,
	suggest func(arg string, args map[string]string) []string) (Prompt, tea.Cmd) {
	d := Prompt{keys: keys.Prompt, command: command, def: def, names: names}
	d.live = forms.Build(def, nil, nil, nil, forms.BuildOptions{Suggest: func(field string, texts map[string]string) []string {
		return suggest(d.arg(field), d.args(texts))
	}})
	return d, d.live.Init()
}

// arg is the argument a field asks.
func (d Prompt) arg(field string) string {
	if a, ok := d.names[field]; ok {
		return a
	}
	return field
}

// args are the fields' non-empty texts by argument name.
func (d Prompt) args(texts map[string]string) map[string]string {
	out := map[string]string{}
	for f, v := range texts {
		if strings.TrimSpace(v) != "" {
			out[d.arg(f)] = v
		}
	}
	return out
}

func (d Prompt) About() string    { return "" }
func (d Prompt) FullScreen() bool { return false }

func (d Prompt) Update(msg tea.Msg) (Dialog, Action) {
	switch msg := msg.(type) {
	case Size:
		d.box = paneBox{msg.Width, msg.Height}
		return d, run(d.live.Resize(d.box.inner(), max(3, d.box.rows()-1)))
	case tea.KeyMsg:
		if key.Matches(msg, d.keys.Close) {
			return d, Close{}
		}
	}
	cmd := d.live.Update(msg)
	if !d.live.Submitted() {
		return d, run(cmd)
	}
	if missing := forms.Missing(d.def, d.live.Values()); len(missing) > 0 {
		return d, run(tea.Batch(cmd, d.live.Edit(missing[0])))
	}
	return d, SendPrompt{Command: d.command, Args: d.args(d.live.RawText())}
}

func (d Prompt) View(width, height int, focused bool) string {
	b := paneBox{width, height}
	return style.Framed(style.DialogFrame(focused), width, d.live.View()+"\n"+
		style.Truncate(style.HintsFit(b.inner(), d.keys.Next, d.keys.Prev, d.keys.Complete, d.keys.Close), b.inner()))
}
