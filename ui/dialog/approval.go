package dialog

import (
	"cmp"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// Approval asks the user to allow one MCP tool call (docs/mcp.md):
// the server, the tool and its arguments — or a server's sampling request:
// its system prompt and messages, the model and token cap followup would
// use — with allow once, allow for this chat and deny. It arrives by itself like a proposal, so the focus rule
// applies: it takes the focus only when the composer is empty and the user
// paused, and its keys act only while it has the focus. The approval is
// durable: the card is back after a restart until someone decides.
type Approval struct {
	keys ApprovalKeys
	card
	a chat.ApprovalView
	// drawn is the body as last drawn, by the width it was drawn at: a
	// sampling request's prompt and messages are not wrapped again per
	// frame. A new ApprovalView starts a new one.
	drawn *style.Memo[int, string]
}

func NewApproval(keys Keys, a chat.ApprovalView) Approval {
	return Approval{keys: keys.Approval, card: newCard(keys, ""), a: a, drawn: &style.Memo[int, string]{}}
}

func (d Approval) Update(msg tea.Msg) (Dialog, Action) {
	switch msg := msg.(type) {
	case Approvals:
		for _, a := range msg {
			if a.ID == d.a.ID {
				d.a, d.drawn = a, &style.Memo[int, string]{}
				return d, nil
			}
		}
		return d, Close{} // decided elsewhere, or its task stopped
	case Decided:
		if msg.ID != d.a.ID {
			return d, nil
		}
		if msg.Err == nil {
			return d, Close{}
		}
		d.deciding = false
	}
	a, _ := d.update(msg, d.body, choice{d.keys.Once, Approve{ID: d.a.ID}},
		choice{d.keys.Chat, Approve{ID: d.a.ID, ForChat: true}}, choice{d.keys.Deny, Deny{ID: d.a.ID}})
	return d, a
}

func (d Approval) View(width, height int, focused bool) string {
	// Short words, so that deny fits beside the others on a narrow screen.
	hint := d.hint(width, focused, d.keys.Once, style.Relabel(d.keys.Chat, "for this chat"), d.keys.Deny)
	if d.deciding {
		hint = style.Dim.Render("deciding…")
	}
	return d.frame(width, height, focused, d.body(), hint)
}

// Waiting is the line drawn above the form while the user types in it.
func (d Approval) Waiting() string {
	what := " asks to run " + forms.SanitizeLine(d.a.Tool)
	if d.a.Sampling != nil {
		what = " asks to use followup's model"
	}
	return forms.SanitizeLine(d.a.Server) + what + " — the card opens when you pause (" + d.focusK.Help().Key + ")."
}

func (d Approval) body() string { return d.drawn.Get(d.box.inner(), d.draw) }

func (d Approval) draw() string {
	a := d.a
	var b strings.Builder
	if v := a.Sampling; v != nil {
		b.WriteString(style.Bold.Render("Allow "+forms.SanitizeLine(a.Server)+" (MCP server) to use followup's model?") + "\n")
		b.WriteString(style.Dim.Render("asked during "+forms.SanitizeLine(a.Tool)) + "\n")
		if a.Owner != nil {
			b.WriteString(style.Dim.Render(words.AskedBy(*a.Owner)) + "\n")
		}
		b.WriteString(style.Dim.Render(fmt.Sprintf("model %s, a reply of at most %d tokens (the server asks up to %d)",
			forms.SanitizeLine(v.Model), v.Cap, v.MaxTokens)) + "\n")
		text := func(head, t string) {
			b.WriteString("\n" + style.Bold.Render(head) + "\n")
			for _, l := range strings.Split(forms.SanitizeBlock(t), "\n") {
				b.WriteString(words.HangingIndent(l, 2, d.box.inner()) + "\n")
			}
		}
		if v.SystemPrompt != "" {
			text("System prompt", v.SystemPrompt)
		}
		for _, m := range v.Messages {
			text("Message ("+forms.SanitizeLine(m.Role)+")", m.Text)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	b.WriteString(style.Bold.Render("Allow "+forms.SanitizeLine(a.Server)+" (MCP server) to run "+forms.SanitizeLine(a.Tool)+"?") + "\n")
	about := forms.PlainLine(cmp.Or(a.Title, a.Annotations.Title))
	if desc := forms.PlainLine(a.Description); desc != "" {
		about = strings.TrimPrefix(about+" — "+desc, " — ")
	}
	if about != "" {
		b.WriteString(style.Dim.Render(about) + "\n")
	}
	if a.Owner != nil {
		b.WriteString(style.Dim.Render(words.AskedBy(*a.Owner)) + "\n")
	}
	b.WriteString(style.Dim.Render("hints: "+forms.SanitizeLine(a.Annotations.Words())) + "\n")
	b.WriteString("\n" + style.Bold.Render("Arguments") + "\n")
	for _, l := range strings.Split(words.PrettyJSON(a.Arguments), "\n") {
		b.WriteString(words.HangingIndent(l, 2, d.box.inner()) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
