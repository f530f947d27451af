// Package ui is followup's chat screen: a Bubble Tea program with the
// transcript on top, pending input requests drawn as forms above the
// composer, and a status line. It talks to the chat host only through
// tea.Cmds and the host's events; it opens no database and calls no model.
package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"followup/ui/dialog"
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
	// Command is help only: a / starts a server's prompt; CommandNext and
	// CommandPrev move through the list of those the text matches.
	Command, CommandNext, CommandPrev key.Binding

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

	dialog.Keys // on the dialogs
}

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
		// A / starts an MCP server's prompt (the composer completes it).
		Command:     bind([]string{"/"}, "/", "MCP prompts"),
		CommandNext: bind([]string{"tab", "down"}, "tab/↓", "next prompt in the list"),
		CommandPrev: bind([]string{"shift+tab", "up"}, "⇧tab/↑", "previous prompt"),

		Focus:     focus,
		NextReq:   bind([]string{"ctrl+n"}, "ctrl+n", "next question"),
		PrevReq:   bind([]string{"ctrl+p"}, "ctrl+p", "previous question"),
		CancelReq: bind([]string{"ctrl+x"}, "ctrl+x", "cancel this question"),
		ReadAll:   bind([]string{"f3"}, "f3", "read why in full"),

		NextField: bind([]string{"tab"}, "tab", "next field"),
		PrevField: bind([]string{"shift+tab"}, "⇧tab", "previous field"),
		Continue:  bind([]string{"enter"}, "enter", "continue"),
		LeaveForm: bind([]string{"esc"}, "esc", "leave (draft kept)"),

		Keys: dialog.Keys{
			Focus:  focus,
			Closed: dialog.ClosedKeys{Dismiss: bind([]string{"esc", "enter"}, "esc", "dismiss")},
			Review: dialog.ReviewKeys{
				Send: bind([]string{"enter", "y"}, "enter", "send answer"),
				Back: bind([]string{"esc", "e"}, "esc", "back to editing"),
				// ctrl+x is the screen's (it passes through the review), listed here too
				Cancel: bind([]string{"ctrl+x"}, "ctrl+x", "cancel this question"),
			},
			Cancel: dialog.ConfirmKeys{
				Yes: bind([]string{"y"}, "y", "cancel question"),
				No:  bind([]string{"n", "esc"}, "n", "keep it"),
			},
			Stop: dialog.ConfirmKeys{
				Yes: bind([]string{"y"}, "y", "stop task"),
				No:  bind([]string{"n", "esc"}, "n", "keep working"),
			},
			Proposal: dialog.ProposalKeys{
				Accept: bind([]string{"a"}, "a", "accept proposal"),
				Keep:   bind([]string{"k", "esc"}, "k", "keep mine"),
			},
			Approval: dialog.ApprovalKeys{
				Once: bind([]string{"y"}, "y", "allow once"),
				Chat: bind([]string{"a"}, "a", "allow for this chat"),
				Deny: bind([]string{"n"}, "n", "deny"),
			},
			URL: dialog.URLKeys{
				Open:    bind([]string{"o"}, "o", "open in the browser"),
				Copy:    bind([]string{"c"}, "c", "copy"),
				Done:    bind([]string{"d"}, "d", "done"),
				Decline: bind([]string{"n"}, "n", "decline"),
			},
			Scroll: dialog.ScrollKeys{
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
			ServersPick:    bind([]string{"up", "down"}, "↑/↓", "pick a resource"),
			ServersAttach:  bind([]string{"enter"}, "enter", "attach it to your next message"),
			Prompt: dialog.PromptKeys{
				Next: bind([]string{"enter", "tab"}, "enter", "next / send"),
				Prev: bind([]string{"shift+tab"}, "⇧tab", "back"),
				// huh's key for the suggestion a text field shows
				Complete: bind([]string{"ctrl+e"}, "ctrl+e", "take the suggestion"),
				Close:    bind([]string{"esc"}, "esc", "close, send nothing"),
			},
			ChatList: dialog.ChatKeys{
				Up:      bind([]string{"up", "k"}, "↑/k", "previous"),
				Down:    bind([]string{"down", "j"}, "↓/j", "next"),
				Open:    bind([]string{"enter"}, "enter", "open"),
				New:     bind([]string{"n"}, "n", "new chat"),
				Archive: bind([]string{"a"}, "a", "archive / unarchive"),
				Delete:  bind([]string{"d"}, "d", "delete (press twice)"),
				Close:   bind([]string{"esc", "ctrl+o"}, "esc", "close"),
			},
		},
	}
}

// sections is every key grouped by where it applies, each listed once per
// place. Help is drawn from it.
func (k keyMap) sections() []dialog.Section {
	return []dialog.Section{
		{Title: "Anywhere", Keys: []key.Binding{k.Help, k.Chats, k.ScrollUp, k.StopTask, k.Resend, k.ToolRows, k.Servers, k.Skills, k.Suspend, k.Quit}},
		{Title: "Composer", Keys: []key.Binding{k.Send, k.Newline, k.HelpQ, k.Command}},
		{Title: "While a question waits", Keys: []key.Binding{k.Focus, k.NextReq, k.PrevReq, k.CancelReq, k.ReadAll}},
		{Title: "Form", Keys: []key.Binding{k.NextField, k.PrevField, k.Continue, k.LeaveForm}},
		{Title: "Review", Keys: []key.Binding{k.Review.Send, k.Review.Back}},
		{Title: "Proposal", Keys: []key.Binding{k.Proposal.Accept, k.Proposal.Keep}},
		{Title: "A question closed elsewhere", Keys: []key.Binding{k.Closed.Dismiss}},
		{Title: "Approval (tool, sampling)", Keys: []key.Binding{k.Approval.Once, k.Approval.Chat, k.Approval.Deny}},
		{Title: "Link to visit", Keys: []key.Binding{k.URL.Open, k.URL.Copy, k.URL.Done, k.URL.Decline}},
		{Title: "Cancel a question", Keys: []key.Binding{k.Cancel.Yes, k.Cancel.No}},
		{Title: "Stop the task", Keys: []key.Binding{k.Stop.Yes, k.Stop.No}},
		{Title: "Chats", Keys: []key.Binding{k.ChatList.Up, k.ChatList.Down, k.ChatList.Open, k.ChatList.New, k.ChatList.Archive, k.ChatList.Delete, k.ChatList.Close}},
		{Title: "Long views", Keys: []key.Binding{k.Scroll.Up, k.Scroll.PageUp, k.Scroll.Top}},
		{Title: "Help", Keys: []key.Binding{k.HelpClose}},
		{Title: "MCP servers", Keys: []key.Binding{k.ServersRestart, k.ServersClose}},
	}
}
