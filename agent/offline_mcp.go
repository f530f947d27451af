package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"followup/agent/mcp"
	"followup/forms"
)

// The demo agent's last row of docs/behaviour.md, checked before every other: a
// message that starts with `call SERVER.TOOL`, optionally followed by a
// JSON object, calls that MCP tool with those arguments — through the
// approval and elicitation paths like any model — and replies with the
// tool's text result, or says plainly that the call was denied,
// interrupted or failed.

// callPrefix starts a demo message that calls an MCP tool.
const callPrefix = "call "

// callTurn is the demo agent's turn for a `call` message, if text is one.
func callTurn(text string, st *history) (Message, bool) {
	t := strings.TrimSpace(text)
	if len(t) < len(callPrefix) || !strings.EqualFold(t[:len(callPrefix)], callPrefix) {
		return Message{}, false
	}
	rest := strings.TrimSpace(t[len(callPrefix):])
	target, args, _ := strings.Cut(rest, " ")
	if i := strings.IndexAny(target, "{\n\t"); i >= 0 {
		target, args = target[:i], target[i:]+" "+args
	}
	server, tool, ok := strings.Cut(target, ".")
	if !ok || server == "" || tool == "" {
		return Message{Content: "To call an MCP tool, write `call SERVER.TOOL` and, if it takes arguments, a JSON object: " +
			"`call everything.echo {\"message\": \"hi\"}`. `followup mcp list` shows the servers and their tools."}, true
	}
	raw := json.RawMessage(`{}`)
	if a := strings.TrimSpace(args); a != "" {
		var obj map[string]any
		if err := json.Unmarshal([]byte(a), &obj); err != nil || obj == nil {
			return Message{Content: fmt.Sprintf("The arguments of `call %s` must be one JSON object, like `{\"message\": \"hi\"}`; I could not read %q.",
				target, clipText(a, 80))}, true
		}
		var b bytes.Buffer
		json.Compact(&b, []byte(a))
		raw = b.Bytes()
	}
	return st.calling(fmt.Sprintf("Calling %s on %s.", tool, server), mcp.ToolName(server, tool), raw), true
}

// toolReply is what the demo agent says about an MCP tool's result.
type toolReply struct {
	Status  string `json:"status"`
	Tool    string `json:"tool"`
	Text    string `json:"text"`
	Message string `json:"message"`
}

// mcpReply answers the result of one of its `call`s, if m is one.
func mcpReply(m Message) (string, bool) {
	if !strings.HasPrefix(m.ToolName, "mcp__") {
		return "", false
	}
	var r toolReply
	if json.Unmarshal([]byte(m.Content), &r) != nil || r.Status == "" {
		return "", false
	}
	switch r.Status {
	case "ok":
		if strings.TrimSpace(r.Text) == "" {
			return "The tool returned no text.", true
		}
		return r.Text, true
	case "tool_error":
		return "The tool reported an error: " + r.Text, true
	case "tool_denied":
		return "You denied that tool call, so I did not make it.", true
	case "tool_interrupted":
		return "The tool call was interrupted (" + r.Message + "). I cannot tell whether it took effect, so I did not repeat it.", true
	case "tool_declined":
		return "The tool call did not go ahead: " + r.Message + ".", true
	}
	return "The tool call failed: " + r.Message + ".", true
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// sampledReply is the demo agent's answer to an MCP server's sampling
// request: it cannot think, so it says what it read, the same every time.
func sampledReply(h []Message) string {
	last := ""
	for _, m := range h {
		if m.Role == RoleUser {
			last = m.Content
		}
	}
	words := strings.Fields(last)
	return fmt.Sprintf("This is followup's offline demo model. I read %d %s; the last of yours has %d %s and begins %q.",
		len(h), forms.Plural(len(h), "message", "messages"), len(words), forms.Plural(len(words), "word", "words"), clipText(strings.Join(words, " "), 60))
}
