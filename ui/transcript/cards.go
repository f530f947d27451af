package transcript

import (
	"fmt"
	"strings"

	"followup/agent/mcp"
	"followup/chat"
	"followup/forms"

	"followup/ui/style"
	"followup/ui/words"

	"github.com/charmbracelet/lipgloss"
)

// A request's card in the transcript: its title, its state in words and
// what was answered.

func cardVersion(r chat.RequestView) string {
	v := string(r.State) + "|" + r.ClosedReason + "|" + r.Digest + "|" + strings.Join(r.Missing, ",")
	for _, d := range r.Deliveries {
		v += fmt.Sprintf("|%s:%s", d.Kind, d.State)
	}
	return v
}

// requestCard is a request's line in the transcript: its title and its
// state, each closed state worded differently, with the delivery state.
func requestCard(r chat.RequestView, width int) string {
	if r.ID == "" {
		return style.Notice.Render("  (input request)")
	}
	title := forms.PlainLine(r.Title)
	st := style.States[string(r.State)]
	var status string
	switch r.State {
	case chat.RequestPending:
		status = "waiting for your answer"
		if len(r.Partial) > 0 {
			status += " · partly answered, still missing " + words.Labels(r, r.Missing)
		}
	case chat.RequestAnswered:
		status = "answered: "
		if r.Answer != nil {
			status += words.SummarizeValues(r, r.Answer.Values)
		}
	case chat.RequestCancelled:
		status = "cancelled by you"
		if r.ClosedReason == "agent_cancelled" { // its asker's input_cancel
			status = "withdrawn by " + words.AskedByName(r.Owner)
		}
	case chat.RequestExpired:
		status = "expired — " + words.Expired(r)
	}
	status = linkCardWords(r, status)
	if len(r.Unsent) > 0 {
		status += " · you had typed: " + words.SummarizeValues(r, r.Unsent)
	}
	if n := len(r.Deliveries); n > 0 {
		d := r.Deliveries[n-1]
		status += " · " + deliveryTo(r, d)
	}
	line := "? " + style.Bold.Render(title) + "  " + st.Render(forms.SanitizeLine(status))
	return lipgloss.NewStyle().Width(width - 2).PaddingLeft(2).Render(line)
}

// linkCardWords is what the transcript card of a link to visit says of
// its state: the host, and done or declined rather than an answer.
func linkCardWords(r chat.RequestView, status string) string {
	if r.Mode != "url" {
		return status
	}
	host := chat.CheckLink(r.URL).Host
	switch r.State {
	case chat.RequestPending:
		return "waiting: open " + host + " and say done"
	case chat.RequestAnswered:
		return "you said done (" + host + ")"
	case chat.RequestCancelled:
		return "declined by you (" + host + ")"
	}
	return status
}

// deliveryTo says where a request's answer went: to the agent, or to the
// MCP server that asked, with what it was sent.
func deliveryTo(r chat.RequestView, d chat.DeliveryView) string {
	if d.Target != "mcp_server" {
		switch d.State {
		case "delivered":
			return "delivered to the agent"
		case "pending":
			return "not yet delivered"
		case "unknown":
			return "delivery interrupted — will be checked"
		case "failed":
			return "not delivered: " + d.LastError
		}
		return d.State
	}
	server := words.AskedByName(r.Owner)
	switch d.State {
	case "delivered":
		if r.Mode == mcp.ModeURL && !r.Live {
			// A link of -32042: nothing is sent, the call is made again.
			return "done — " + server + " was called again"
		}
		return "sent to " + server + ": " + forms.SanitizeLine(d.Action)
	case "failed":
		if d.LastError == "" { // its connection was gone: the card says why
			return "nothing was sent to " + server
		}
		return "not sent to " + server + ": " + forms.SanitizeLine(d.LastError)
	}
	return "to be sent to " + server + ": " + forms.SanitizeLine(d.Action)
}
