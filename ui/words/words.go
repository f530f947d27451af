// Package words is what the screen says of the host's things, in the
// dialogs and the transcript alike: who asks, answers in a line, a tool
// call's arguments.
package words

import (
	"bytes"
	"encoding/json"
	"strings"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"

	"github.com/charmbracelet/lipgloss"
)

// AskedBy is the form's line about who asks, "" for followup's own agent.
func AskedBy(o chat.Owner) string {
	switch o.Kind {
	case chat.OwnerMCPClient:
		if o.Name == "" {
			return "asked by an MCP client"
		}
		return "asked by " + forms.SanitizeLine(o.Name)
	case chat.OwnerMCPServer:
		if o.ForSubAgent() {
			return "asked by " + forms.SanitizeLine(o.Name) + " (MCP server) for " + forms.SanitizeLine(o.Path) + " (sub-agent of this task)"
		}
		return "asked by " + forms.SanitizeLine(o.Name) + " (MCP server)"
	}
	if o.SubAgent() {
		return "asked by " + forms.SanitizeLine(o.Path) + " (sub-agent of this task)"
	}
	return ""
}

// AskedByName names who asked a request, in a sentence.
func AskedByName(o chat.Owner) string {
	switch {
	case o.SubAgent():
		return "sub-agent " + forms.SanitizeLine(o.Path)
	case o.Kind == chat.OwnerAgent:
		return "the agent"
	case o.Name == "":
		return "the MCP client"
	}
	return forms.SanitizeLine(o.Name)
}

// CancelTells says who is told what when the user cancels r (docs/mcp.md):
// what the confirmation promises, and the line once it is done. An MCP
// server's question is declined to it and its tool call goes on; an MCP
// client reads it as cancelled; followup's own agent is told and its task
// goes on without it.
func CancelTells(r chat.RequestView) (promise, done string) {
	title := "“" + forms.PlainLine(r.Title) + "”"
	who := AskedByName(r.Owner)
	switch r.Owner.Kind {
	case chat.OwnerMCPServer:
		return title + " is declined: " + who + " (MCP server) is told no, and its tool call goes on without an answer.",
			"Declined: " + who + " is told no, and the call goes on."
	case chat.OwnerMCPClient:
		return title + " is withdrawn: " + who + " reads it as cancelled (input_cancelled) and goes on without it.",
			"Question cancelled — " + who + " reads it as cancelled."
	}
	return title + " is withdrawn and the agent is told; the task goes on without it.",
		"Question cancelled — the agent was told and goes on without it."
}

// Expired says why r expired, after "expired": "its deadline passed";
// "" when the reason is not one of these.
func Expired(r chat.RequestView) string {
	return map[string]string{
		"deadline": "its deadline passed", "template_invalidated": "its template was withdrawn",
		"task_stopped": "the task was stopped", "withdrawn": "withdrawn by " + AskedByName(r.Owner),
		"disconnected": AskedByName(r.Owner) + " is gone (its connection ended)",
	}[r.ClosedReason]
}

// SummarizeValues lists values by their fields' labels, in the form's
// order, each as the review shows it (forms.Field.ValueLine).
func SummarizeValues(r chat.RequestView, vals forms.Values) string {
	parts := make([]string, 0, len(r.Fields))
	for _, f := range r.Fields {
		if v, ok := vals[f.Name]; ok {
			parts = append(parts, Labelled(f.DisplayLabel(), f.ValueLine(v)))
		}
	}
	return strings.Join(parts, " · ")
}

// Labelled is a value after its label: "Environment: staging"; a label
// that is a question keeps its own mark, the value quoted.
func Labelled(label, value string) string {
	if strings.HasSuffix(label, "?") || strings.HasSuffix(label, ":") {
		return label + " “" + value + "”"
	}
	return label + ": " + value
}

// PrettyJSON is raw JSON indented, sanitised line by line.
func PrettyJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if len(raw) == 0 {
		return "{}"
	}
	if json.Indent(&b, raw, "", "  ") != nil {
		return forms.SanitizeBlock(string(raw))
	}
	return forms.SanitizeBlock(b.String())
}

// HangingIndent wraps one line of pretty-printed JSON to width, indented
// by indent plus its own leading spaces, its continuation lines two more.
func HangingIndent(line string, indent, width int) string {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	first := strings.Repeat(" ", indent+lead)
	rest := first + "  "
	room := max(4, width-len(rest))
	wrapped := strings.Split(lipgloss.NewStyle().Width(room).Render(strings.TrimLeft(line, " ")), "\n")
	for i, w := range wrapped {
		w = strings.TrimRight(w, " ")
		if i == 0 {
			wrapped[i] = first + w
		} else {
			wrapped[i] = rest + w
		}
	}
	return strings.Join(wrapped, "\n")
}

// ProblemList names every problem of the reply, one a line.
func ProblemList(ps []forms.Problem) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = style.Error.Render("✗ " + forms.SanitizeLine(p.Message))
	}
	return strings.Join(lines, "\n")
}

// Labels names fields by their labels, in the order given.
func Labels(r chat.RequestView, names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		for _, f := range r.Fields {
			if f.Name == n {
				out[i] = f.DisplayLabel()
			}
		}
	}
	return strings.Join(out, ", ")
}
