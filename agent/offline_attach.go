package agent

import (
	"fmt"
	"strings"
)

// AttachedPrefix begins what a model reads of a resource the user attached
// to a message: "[attached by the user: URI from MCP server S, TYPE]", a
// line break, then its text.
const AttachedPrefix = "[attached by the user: "

// attachedTurn is the demo agent's answer to messages carrying attached
// resources: what it read of each.
func attachedTurn(h []Message) (Message, bool) {
	var said []string
	for i := len(h) - 1; i >= 0 && h[i].Role == RoleUser; i-- {
		head, text, ok := strings.Cut(h[i].Content, "\n")
		if !strings.HasPrefix(head, AttachedPrefix) || !ok {
			continue
		}
		what := strings.TrimSuffix(strings.TrimPrefix(head, AttachedPrefix), "]")
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
		first = clipText(first, 80)
		line := fmt.Sprintf("I read the resource you attached, %s: %d bytes, beginning “%s”.", what, len(text), first)
		if strings.HasPrefix(first, "[binary content") {
			line = fmt.Sprintf("The resource you attached, %s, is binary: I was told only its type and size.", what)
		}
		said = append([]string{line}, said...)
	}
	if len(said) == 0 {
		return Message{}, false
	}
	return Message{Content: strings.Join(said, "\n\n")}, true
}
