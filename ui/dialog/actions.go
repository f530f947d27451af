package dialog

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/chat"
)

// An Action is what a dialog asks the root to do: one of the types
// below (or Lifecycle). nil asks nothing.
type Action any

type (
	// Close closes the dialog.
	Close struct{}
	// Pass: the dialog did not take the key; the screen routes it on.
	Pass struct{}
	// Send sends the reviewed answer (the review stays until it lands).
	Send struct{}
	// Back goes back from the review to the form, on the field to fix.
	Back struct{}
	// Cancel cancels one question.
	Cancel struct{ RequestID string }
	// Stop stops the task.
	Stop struct{ RunID string }
	// Decide accepts or rejects a proposal.
	Decide struct {
		ProposalID string
		Accept     bool
	}
	// OpenChat shows another chat; NewChat an empty new one.
	OpenChat struct{ ChatID string }
	NewChat  struct{}
	// AskUnread reads what deleting a chat would throw away (Unread).
	AskUnread struct{ ChatID string }
	// MoreChats reads the page of Limit chats after the cursor After.
	MoreChats struct {
		After string
		Limit int
	}
	// Approve allows an approval (once, or for the chat); Deny denies it.
	Approve struct {
		ID      string
		ForChat bool
	}
	Deny struct{ ID string }
	// RestartServers starts failed servers again.
	RestartServers struct{ Names []string }
	// Attach attaches an MCP resource to the next message.
	Attach struct{ Resource mcp.Resource }
	// OpenLink and CopyLink act on a consent card's link; LinkDone says
	// done (accept, with no content), LinkDecline declines.
	OpenLink    struct{ URL string }
	CopyLink    struct{ URL string }
	LinkDone    struct{ Req chat.RequestView }
	LinkDecline struct{ RequestID string }
	// Run carries out a form's own command (huh moves through its fields
	// with them).
	Run struct{ Cmd tea.Cmd }
	// SendPrompt sends an MCP server's prompt with its arguments.
	SendPrompt struct {
		Command string
		Args    map[string]string
	}
)

// run is the action of a form's command, nil when there is none.
func run(cmd tea.Cmd) Action {
	if cmd == nil {
		return nil
	}
	return Run{cmd}
}

// Decides reports whether a decides something for the user: the keys
// typed right after it in the same burst are dropped.
func Decides(a Action) bool {
	switch a.(type) {
	case Send, Decide, Cancel, Stop, Approve, Deny, LinkDone, LinkDecline, SendPrompt:
		return true
	}
	return false
}
