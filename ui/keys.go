// Package ui is followup's chat screen: a Bubble Tea program with the
// transcript on top, pending input requests drawn as forms above the
// composer, and a status line. It talks to the chat host only through
// tea.Cmds and the host's events; it opens no database and calls no model.
package ui

import (
	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every binding of the screen, grouped by where it applies. The
// help view and every hint on screen are generated from it, so what they
// say and what the keys do cannot disagree.
type keyMap struct {
	// Anywhere on the chat screen.
	Quit       key.Binding
	Suspend    key.Binding
	Help       key.Binding
	Chats      key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
	StopTask   key.Binding
	Resend     key.Binding
	ToolRows   key.Binding // fold or unfold every tool call in the transcript
	Servers    key.Binding // the MCP servers
	Skills     key.Binding // the agent's skills

	// In the composer.
	Send    key.Binding
	Newline key.Binding
	HelpQ   key.Binding // ? while the composer is empty

	// While a question waits.
	Focus     key.Binding
	NextReq   key.Binding
	PrevReq   key.Binding
	CancelReq key.Binding
	ReadAll   key.Binding // the whole of why a question is asked, when the pane cuts it

	// In a form. The form handles these itself; they are listed so help
	// and the hints show them.
	NextField key.Binding
	PrevField key.Binding
	Continue  key.Binding
	LeaveForm key.Binding

	Closed       closedKeys // on the card of a question closed elsewhere
	Review       reviewKeys
	Cancel       confirmKeys
	Stop         confirmKeys
	Proposal     proposalKeys
	Approval     approvalKeys
	URL          urlKeys     // on an MCP server's link to visit
	Scroll       scrollKeys  // in any view taller than its box
	HelpClose    key.Binding // closes help
	ReadClose    key.Binding // closes the whole of why a question is asked
	ServersClose key.Binding // closes the MCP servers list
	SkillsClose  key.Binding // closes the skills list
	// ServersRestart starts the failed MCP servers again, in their list.
	ServersRestart key.Binding
	ChatList       chatKeys
}

// reviewKeys apply on the review. Focus is the screen's, for the hint of
// a dialog waiting for the focus (as in the others).
type reviewKeys struct{ Send, Back, Cancel, Focus key.Binding }

// closedKeys apply on the card of a question that closed elsewhere.
type closedKeys struct{ Dismiss, Focus key.Binding }

// confirmKeys answer a yes/no question.
type confirmKeys struct{ Yes, No, Focus key.Binding }

// proposalKeys decide a proposal.
type proposalKeys struct{ Accept, Keep, Focus key.Binding }

// approvalKeys decide an MCP tool call's approval.
type approvalKeys struct{ Once, Chat, Deny, Focus key.Binding }

// scrollKeys move through a view taller than its box.
type scrollKeys struct{ Up, Down, PageUp, PageDown, Top, Bottom key.Binding }

// chatKeys apply in the chat list.
type chatKeys struct{ Up, Down, Open, New, Archive, Delete, Close key.Binding }

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

func defaultKeys() keyMap {
	focus := bind([]string{"ctrl+f"}, "ctrl+f", "form ⇄ composer")
	return keyMap{
		Quit:       bind([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Suspend:    bind([]string{"ctrl+z"}, "ctrl+z", "suspend (fg resumes)"),
		Help:       bind([]string{"f1", "ctrl+g"}, "f1/ctrl+g", "help"),
		Chats:      bind([]string{"ctrl+o"}, "ctrl+o", "chats"),
		ScrollUp:   bind([]string{"pgup"}, "pgup/pgdn", "scroll"), // help lists the pair once
		ScrollDown: bind([]string{"pgdown"}, "pgdn", "scroll down"),
		StopTask:   bind([]string{"ctrl+s"}, "ctrl+s", "stop the task"),
		Resend:     bind([]string{"ctrl+r"}, "ctrl+r", "resume or retry a run"),
		ToolRows:   bind([]string{"ctrl+t"}, "ctrl+t", "fold / unfold tools"),
		Servers:    bind([]string{"f2", "ctrl+l"}, "f2/ctrl+l", "MCP servers"),
		Skills:     bind([]string{"f4"}, "f4", "skills"),

		Send:    bind([]string{"enter"}, "enter", "send message"),
		Newline: bind([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),
		HelpQ:   bind([]string{"?"}, "?", "help, when empty"),

		Focus:     focus,
		NextReq:   bind([]string{"ctrl+n"}, "ctrl+n", "next question"),
		PrevReq:   bind([]string{"ctrl+p"}, "ctrl+p", "previous question"),
		CancelReq: bind([]string{"ctrl+x"}, "ctrl+x", "cancel this question"),
		ReadAll:   bind([]string{"f3"}, "f3", "read why in full"),

		NextField: bind([]string{"tab"}, "tab", "next field"),
		PrevField: bind([]string{"shift+tab"}, "⇧tab", "previous field"),
		Continue:  bind([]string{"enter"}, "enter", "continue"),
		LeaveForm: bind([]string{"esc"}, "esc", "leave (draft kept)"),

		Closed: closedKeys{
			Dismiss: bind([]string{"esc", "enter"}, "esc", "dismiss"),
			Focus:   focus,
		},
		Review: reviewKeys{
			Send: bind([]string{"enter", "y"}, "enter", "send answer"),
			Back: bind([]string{"esc", "e"}, "esc", "back to editing"),
			// ctrl+x is the screen's (it passes through the review), listed here too
			Cancel: bind([]string{"ctrl+x"}, "ctrl+x", "cancel this question"),
			Focus:  focus,
		},
		Cancel: confirmKeys{
			Yes:   bind([]string{"y"}, "y", "cancel question"),
			No:    bind([]string{"n", "esc"}, "n", "keep it"),
			Focus: focus,
		},
		Stop: confirmKeys{
			Yes:   bind([]string{"y"}, "y", "stop task"),
			No:    bind([]string{"n", "esc"}, "n", "keep working"),
			Focus: focus,
		},
		Proposal: proposalKeys{
			Accept: bind([]string{"a"}, "a", "accept proposal"),
			Keep:   bind([]string{"k", "esc"}, "k", "keep mine"),
			Focus:  focus,
		},
		Approval: approvalKeys{
			Once:  bind([]string{"y"}, "y", "allow once"),
			Chat:  bind([]string{"a"}, "a", "allow for this chat"),
			Deny:  bind([]string{"n"}, "n", "deny"),
			Focus: focus,
		},
		URL: urlKeys{
			Open:    bind([]string{"o"}, "o", "open in the browser"),
			Copy:    bind([]string{"c"}, "c", "copy"),
			Done:    bind([]string{"d"}, "d", "done"),
			Decline: bind([]string{"n"}, "n", "decline"),
			Focus:   focus,
		},
		Scroll: scrollKeys{
			Up:       bind([]string{"up"}, "↑/↓", "scroll"),
			Down:     bind([]string{"down"}, "↓", "scroll down"),
			PageUp:   bind([]string{"pgup"}, "pgup/pgdn", "page"),
			PageDown: bind([]string{"pgdown", " "}, "pgdn", "page down"),
			Top:      bind([]string{"home"}, "home/end", "top / bottom"),
			Bottom:   bind([]string{"end"}, "end", "bottom"),
		},
		ReadClose:      bind([]string{"esc", "q", "f3"}, "esc", "close"),
		HelpClose:      bind([]string{"esc", "q", "f1", "ctrl+g", "?"}, "esc", "close help"),
		ServersClose:   bind([]string{"esc", "q", "f2", "ctrl+l"}, "esc", "close"),
		SkillsClose:    bind([]string{"esc", "q", "f4"}, "esc", "close"),
		ServersRestart: bind([]string{"r"}, "r", "restart failed servers"),
		ChatList: chatKeys{
			Up:      bind([]string{"up", "k"}, "↑/k", "previous"),
			Down:    bind([]string{"down", "j"}, "↓/j", "next"),
			Open:    bind([]string{"enter"}, "enter", "open"),
			New:     bind([]string{"n"}, "n", "new chat"),
			Archive: bind([]string{"a"}, "a", "archive / unarchive"),
			Delete:  bind([]string{"d"}, "d", "delete (press twice)"),
			Close:   bind([]string{"esc", "ctrl+o"}, "esc", "close"),
		},
	}
}

// keySection is the keys that apply in one place, as help lists them.
type keySection struct {
	title string
	keys  []key.Binding
}

// sections is every key grouped by where it applies, each listed once per
// place. Help is drawn from it.
func (k keyMap) sections() []keySection {
	return []keySection{
		{"Anywhere", []key.Binding{k.Help, k.Chats, k.ScrollUp, k.StopTask, k.Resend, k.ToolRows, k.Servers, k.Skills, k.Suspend, k.Quit}},
		{"Composer", []key.Binding{k.Send, k.Newline, k.HelpQ}},
		{"While a question waits", []key.Binding{k.Focus, k.NextReq, k.PrevReq, k.CancelReq, k.ReadAll}},
		{"Form", []key.Binding{k.NextField, k.PrevField, k.Continue, k.LeaveForm}},
		{"Review", []key.Binding{k.Review.Send, k.Review.Back}},
		{"Proposal", []key.Binding{k.Proposal.Accept, k.Proposal.Keep}},
		{"A question closed elsewhere", []key.Binding{k.Closed.Dismiss}},
		{"Tool approval", []key.Binding{k.Approval.Once, k.Approval.Chat, k.Approval.Deny}},
		{"Link to visit", []key.Binding{k.URL.Open, k.URL.Copy, k.URL.Done, k.URL.Decline}},
		{"Cancel a question", []key.Binding{k.Cancel.Yes, k.Cancel.No}},
		{"Stop the task", []key.Binding{k.Stop.Yes, k.Stop.No}},
		{"Chats", []key.Binding{k.ChatList.Up, k.ChatList.Down, k.ChatList.Open, k.ChatList.New, k.ChatList.Archive, k.ChatList.Delete, k.ChatList.Close}},
		{"Long views", []key.Binding{k.Scroll.Up, k.Scroll.PageUp, k.Scroll.Top}},
		{"Help", []key.Binding{k.HelpClose}},
		{"MCP servers", []key.Binding{k.ServersRestart, k.ServersClose}},
	}
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Focus, k.CancelReq, k.StopTask, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap: the sections' keys.
func (k keyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, s := range k.sections() {
		out = append(out, s.keys)
	}
	return out
}
