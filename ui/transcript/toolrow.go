package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// An MCP tool call's row in the transcript: the server and tool, the
// arguments, where the call stands, how long the server took and what
// came back. Folded (the default), arguments and result take one line
// each; unfolded (a key, for every row at once, as agent TUIs do), the
// arguments are pretty-printed and the result shown whole. Everything in
// a row came from the model or a server: it is sanitised where drawn.

// Data is what transcript entries are drawn from besides their
// messages: the requests their cards name, the tool calls their rows name,
// and how rows look now.
type Data struct {
	Reqs  map[string]chat.RequestView
	Steps map[string]chat.ToolStepView // by StepID
	Look  Look
	// Progress is the servers' latest progress on running calls, by StepID.
	Progress map[string]string
}

// Look is how tool rows are drawn now.
type Look struct {
	Unfolded bool   // arguments and results in full
	Spin     string // the spinner's frame beside a running call; "" while nothing spins
	// idle are the runs no live process drives: their started calls were
	// interrupted, not running.
	Idle map[string]bool
	// Servers is the key of the servers list, where a result's resource
	// links are attached.
	Servers string
}

// StepID names a tool call among the chat's.
func StepID(runID, toolCallID string) string { return runID + "/" + toolCallID }

// rowVersion changes whenever what a tool row shows changes.
func rowVersion(m chat.Message, d Data) string {
	v, ok := d.Steps[StepID(m.RunID, m.ToolCallID)]
	if !ok {
		return "?"
	}
	s := fmt.Sprintf("%s|%s|%d|%d|%t", v.State, v.Outcome, v.Duration, len(v.Text), d.Look.Unfolded)
	for _, id := range v.RequestIDs {
		s += "|" + string(d.Reqs[id].State)
	}
	if len(v.Links) > 0 {
		s += "|" + d.Look.Servers
	}
	if v.State == "started" {
		s += fmt.Sprintf("|%s|%t|%s", d.Look.Spin, d.Look.Idle[v.RunID], d.Progress[StepID(v.RunID, v.ToolCallID)])
	}
	return s
}

// toolRow draws one tool call at width.
func toolRow(m chat.Message, d Data, width int) string {
	inner := max(10, width-4)
	v, ok := d.Steps[StepID(m.RunID, m.ToolCallID)]
	if !ok {
		// The row's call is not read yet (an older page): its name only.
		return "  " + style.Bold.Render("⚙ "+style.Truncate(forms.SanitizeLine(m.Content), inner))
	}
	head := "⚙ " + style.Bold.Render(forms.SanitizeLine(v.Server)+" · "+forms.SanitizeLine(v.Tool))
	args := compactJSON(v.Arguments)
	lines := []string{}
	if d.Look.Unfolded {
		lines = append(lines, head)
		if args != "{}" {
			for _, l := range strings.Split(words.PrettyJSON(v.Arguments), "\n") {
				lines = append(lines, "    "+style.Truncate(l, inner-2))
			}
		}
	} else {
		room := inner - lipgloss.Width(head) - 2
		if args == "{}" || room < 8 {
			lines = append(lines, style.Truncate(head, inner))
		} else {
			lines = append(lines, head+"  "+style.Dim.Render(style.Truncate(args, room)))
		}
	}
	state := rowState(v, d)
	text := forms.SanitizeBlock(strings.TrimSpace(v.Text))
	if v.State != "done" || text == "" {
		lines = append(lines, "  ⎿ "+style.Truncate(state, inner-2))
	} else if !d.Look.Unfolded {
		lines = append(lines, "  ⎿ "+style.Truncate(state+"  "+firstLine(text), inner-2))
	} else {
		lines = append(lines, "  ⎿ "+state)
		wrapped := lipgloss.NewStyle().Width(inner - 2).Render(text)
		for _, l := range strings.Split(wrapped, "\n") {
			lines = append(lines, "    "+l)
		}
		if v.Truncated {
			lines = append(lines, "    "+style.Dim.Render("(cut at the reply-size limit: the model saw this much)"))
		}
	}
	if n := len(v.Links); n > 0 && v.State == "done" {
		lines = append(lines, "    "+style.Dim.Render(style.Truncate(style.Plural(n, "resource link", "resource links")+
			": "+d.Look.Servers+" lists them to attach to your next message", inner-2)))
	}
	return lipgloss.NewStyle().PaddingLeft(2).Render(strings.Join(lines, "\n"))
}

// rowState says where a call stands, with how long the server took.
func rowState(v chat.ToolStepView, d Data) string {
	look := d.Look
	asks := false
	for _, id := range v.RequestIDs {
		asks = asks || d.Reqs[id].State.Open()
	}
	switch {
	case v.State == "input_required" || v.State == "started" && asks:
		return style.Waiting.Render("waiting for your answer to " + forms.SanitizeLine(v.Server) + "'s question")
	}
	switch v.State {
	case chat.StepAwaitingApproval:
		return style.Waiting.Render("waiting for your approval")
	case "started":
		if look.Idle[v.RunID] {
			return style.Error.Render("interrupted — followup stopped during the call")
		}
		running := "running"
		if look.Spin != "" {
			running = look.Spin + " running"
		}
		if p := d.Progress[StepID(v.RunID, v.ToolCallID)]; p != "" {
			running += " · " + forms.SanitizeLine(p)
		}
		return style.Waiting.Render(running)
	}
	took := ""
	if v.Duration > 0 {
		took = " · " + shortDuration(v.Duration)
	}
	switch v.Outcome {
	case chat.OutcomeOK:
		return style.Good.Render("✓ done" + took)
	case chat.OutcomeToolError:
		return style.Error.Render("✗ the tool reported an error" + took)
	case chat.OutcomeDenied:
		return style.Error.Render("✗ denied by you")
	case chat.OutcomeInterrupted:
		return style.Error.Render("✗ interrupted" + took)
	case chat.OutcomeDeclined:
		return style.Error.Render("✗ declined" + took)
	case chat.OutcomeFailed:
		return style.Error.Render("✗ failed" + took)
	}
	return forms.SanitizeLine(v.Outcome) + took
}

// shortDuration is a call's time as people read it: 12ms, 1.4s, 2m05s.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// compactJSON is raw JSON on one line, sanitised.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return forms.SanitizeLine(string(raw))
	}
	return forms.SanitizeLine(b.String())
}
