package dialog

import "github.com/charmbracelet/bubbles/key"

// Keys are the dialogs' bindings; the root's keymap holds them, with help
// and hints generated from it.
type Keys struct {
	// Focus is the screen's key that gives a dialog in the pane the focus
	// and takes it back, for the hint of a dialog waiting for it.
	Focus        key.Binding
	Closed       ClosedKeys // on the card of a question closed elsewhere
	Review       ReviewKeys
	Cancel       ConfirmKeys
	Stop         ConfirmKeys
	Proposal     ProposalKeys
	Approval     ApprovalKeys
	URL          URLKeys     // on an MCP server's link to visit
	Scroll       ScrollKeys  // in any view taller than its box
	HelpClose    key.Binding // closes help
	ReadClose    key.Binding // closes the whole of why a question is asked
	ServersClose key.Binding // closes the MCP servers list
	SkillsClose  key.Binding // closes the skills list
	// ServersRestart starts the failed MCP servers again, in their list.
	ServersRestart key.Binding
	// ServersPick and ServersAttach pick a resource in the list and attach
	// it to the next message.
	ServersPick, ServersAttach key.Binding
	ChatList                   ChatKeys
	Prompt                     PromptKeys // on an MCP server's prompt's form
}

// ReviewKeys apply on the review.
type ReviewKeys struct{ Send, Back, Cancel key.Binding }

// ClosedKeys apply on the card of a question that closed elsewhere.
type ClosedKeys struct{ Dismiss key.Binding }

// ConfirmKeys answer a yes/no question.
type ConfirmKeys struct{ Yes, No key.Binding }

// ProposalKeys decide a proposal.
type ProposalKeys struct{ Accept, Keep key.Binding }

// ApprovalKeys decide an MCP tool call's approval.
type ApprovalKeys struct{ Once, Chat, Deny key.Binding }

// ScrollKeys move through a view taller than its box.
type ScrollKeys struct{ Up, Down, PageUp, PageDown, Top, Bottom key.Binding }

// ChatKeys apply in the chat list.
type ChatKeys struct{ Up, Down, Open, New, Archive, Delete, Close key.Binding }

// URLKeys act on the consent card.
type URLKeys struct{ Open, Copy, Done, Decline key.Binding }

// Section is the keys that apply in one place, as help lists them.
type Section struct {
	Title string
	Keys  []key.Binding
}
