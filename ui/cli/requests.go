package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"

	"followup/chat"
	"followup/forms"
	"followup/ui/words"
)

// blocks writes paragraphs separated by one blank line, with none before
// the first: text output never starts with a blank line.
type blocks struct {
	w    io.Writer
	used bool
}

// add writes one paragraph (lines ending in "\n"); an empty one is skipped.
func (b *blocks) add(text string) {
	if text == "" {
		return
	}
	if b.used {
		io.WriteString(b.w, "\n")
	}
	b.used = true
	io.WriteString(b.w, text)
}

// requestText is one request as text: its heading line, reason, each asked
// field with its constraints and the value it has so far, what is still
// missing, and any proposal waiting for the user with the command that
// decides it. heading is the first line ("pending rq_… "Title" digest …").
func requestText(heading string, r chat.RequestItem, answer forms.Values, proposals []chat.ProposalView) string {
	var b strings.Builder
	b.WriteString(forms.SanitizeLine(heading) + "\n")
	b.WriteString("  " + forms.SanitizeLine(ownerText(r.Owner)+r.Origin.While()) + "\n")
	if r.Reason != "" {
		fmt.Fprintf(&b, "  %s\n", forms.PlainLine(r.Reason))
	}
	if r.Description != "" {
		fmt.Fprintf(&b, "  %s\n", forms.PlainLine(r.Description))
	}
	if r.Mode == "url" {
		b.WriteString(urlText(r)) // mcphost.go
	}
	for _, f := range r.Fields {
		if _, ok := r.Supplied[f.Name]; ok {
			continue
		}
		b.WriteString(forms.SanitizeLine(fieldLine(f, r, answer)) + "\n")
	}
	if len(r.Missing) > 0 && r.State.Open() {
		fmt.Fprintf(&b, "  still missing: %s\n", strings.Join(r.Missing, ", "))
	}
	for _, p := range proposals {
		b.WriteString(forms.SanitizeLine(proposalLine(p)) + "\n")
	}
	return b.String()
}

// fieldLine is "  - travelers: whole number, 1–12, required — given 3".
func fieldLine(f forms.Field, r chat.RequestItem, answer forms.Values) string {
	name := f.Name
	if f.Label != "" && !strings.EqualFold(strings.ReplaceAll(f.Label, " ", "_"), f.Name) {
		name += fmt.Sprintf(" (%q)", f.Label)
	}
	parts := f.Constraints()
	parts = append(parts, map[bool]string{true: "required", false: "optional"}[f.Required])
	line := "  - " + name + ": " + strings.Join(parts, ", ")
	if r.Owner.Kind == chat.OwnerMCPServer && forms.LooksSecret(f) {
		line += " — looks like a secret, which MCP forbids a server to ask for in a form"
	}
	switch v, given := r.Partial[f.Name]; {
	case answer != nil:
		if v, ok := answer[f.Name]; ok {
			line += " — answered " + compact(v)
		}
	case given:
		line += " — given " + compact(v)
	default:
		if v, ok := r.Prefill[f.Name]; ok {
			line += " — suggested " + compact(v)
		}
	}
	return line
}

// proposalLine is a waiting proposal and the command that decides it.
func proposalLine(p chat.ProposalView) string {
	what := "a new form"
	if p.Kind == chat.ProposeResolve {
		what = "the values " + compact(p.Values)
	} else if p.Definition != nil {
		n := len(p.Definition.Fields)
		what = fmt.Sprintf("a new form %q with %d %s", forms.PlainLine(p.Definition.Title), n, forms.Plural(n, "field", "fields"))
	}
	return fmt.Sprintf("  proposal %s (%s): the agent proposes %s; decide with: followup decide %s --accept|--reject", p.ID, p.Kind, what, p.ID)
}

// pendingText is an open request as ask, pending and resume list it.
func pendingText(r chat.RequestItem, proposals []chat.ProposalView) string {
	heading := fmt.Sprintf("pending %s  %q  digest %s", r.ID, forms.PlainLine(r.Title), shortDigest(r.Digest))
	if r.ExpiresAt != nil {
		heading += "  expires " + chat.DeadlineWords(*r.ExpiresAt, time.Now())
	}
	return requestText(heading, r, nil, proposals)
}

// replyText is an assistant reply for people: its markdown rendered as
// plain text, sanitised, ending in a newline ("" for no reply).
func replyText(reply string) string {
	if strings.TrimSpace(reply) == "" {
		return ""
	}
	return forms.SanitizeBlock(strings.TrimRight(forms.PlainText(reply), "\n")) + "\n"
}

// ownerText says who asks, as the form does, but naming followup's own
// agent and an MCP client as such: "asked by the agent", "asked by NAME
// (MCP client)".
func ownerText(o chat.Owner) string {
	if o.Kind == chat.OwnerMCPClient && o.Name != "" {
		return "asked by " + forms.SanitizeLine(o.Name) + " (MCP client)"
	}
	return cmp.Or(words.AskedBy(o), "asked by the agent")
}
