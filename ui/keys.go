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
	Help       key.Binding
	Chats      key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
	StopTask   key.Binding
	Resend     key.Binding

	// In the composer.
	Send    key.Binding
	Newline key.Binding

	// While a question waits.
	Focus     key.Binding
	NextReq   key.Binding
	PrevReq   key.Binding
	CancelReq key.Binding

	// In a form (tab is handled by the form itself; listed so help shows it).
	NextField key.Binding
	LeaveForm key.Binding

	Review   reviewKeys
	Cancel   confirmKeys
	Stop     confirmKeys
	Proposal proposalKeys
	HelpView scrollKeys
	ChatList chatKeys
}

// reviewKeys apply on the review.
type reviewKeys struct{ Send, Back key.Binding }

// confirmKeys answer a yes/no question.
type confirmKeys struct{ Yes, No key.Binding }

// proposalKeys decide a proposal.
type proposalKeys struct{ Accept, Keep key.Binding }

// scrollKeys move through a view taller than its box.
type scrollKeys struct{ Up, Down, PageUp, PageDown, Top, Bottom, Close key.Binding }

// chatKeys apply in the chat list.
type chatKeys struct{ Up, Down, Open, New, Archive, Delete, Close key.Binding }

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

func defaultKeys() keyMap {
	return keyMap{
		Quit:       bind([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Help:       bind([]string{"f1", "ctrl+g"}, "f1", "help"),
		Chats:      bind([]string{"ctrl+o"}, "ctrl+o", "chats"),
		ScrollUp:   bind([]string{"pgup"}, "pgup", "scroll up"),
		ScrollDown: bind([]string{"pgdown"}, "pgdn", "scroll down"),
		StopTask:   bind([]string{"ctrl+s"}, "ctrl+s", "stop the whole task"),
		Resend:     bind([]string{"ctrl+r"}, "ctrl+r", "resume interrupted run"),

		Send:    bind([]string{"enter"}, "enter", "send message"),
		Newline: bind([]string{"alt+enter", "ctrl+j"}, "alt+enter", "new line"),

		Focus:     bind([]string{"ctrl+f"}, "ctrl+f", "form ⇄ composer"),
		NextReq:   bind([]string{"ctrl+n"}, "ctrl+n", "next question"),
		PrevReq:   bind([]string{"ctrl+p"}, "ctrl+p", "previous question"),
		CancelReq: bind([]string{"ctrl+x"}, "ctrl+x", "cancel this question"),

		NextField: bind([]string{"tab", "shift+tab"}, "tab/⇧tab", "next/previous field"),
		LeaveForm: bind([]string{"esc"}, "esc", "leave form (draft kept)"),

		Review: reviewKeys{
			Send: bind([]string{"enter", "y"}, "enter", "send answer"),
			Back: bind([]string{"esc", "e"}, "esc", "back to editing"),
		},
		Cancel: confirmKeys{
			Yes: bind([]string{"y"}, "y", "cancel question"),
			No:  bind([]string{"n", "esc"}, "n", "keep it"),
		},
		Stop: confirmKeys{
			Yes: bind([]string{"y"}, "y", "stop task"),
			No:  bind([]string{"n", "esc"}, "n", "keep working"),
		},
		Proposal: proposalKeys{
			Accept: bind([]string{"a"}, "a", "accept proposal"),
			Keep:   bind([]string{"k", "esc"}, "k", "keep mine"),
		},
		HelpView: scrollKeys{
			Up:       bind([]string{"up", "k"}, "↑/↓", "scroll"),
			Down:     bind([]string{"down", "j"}, "↓", "scroll down"),
			PageUp:   bind([]string{"pgup"}, "pgup/pgdn", "page"),
			PageDown: bind([]string{"pgdown", " "}, "pgdn", "page down"),
			Top:      bind([]string{"home", "g"}, "home", "top"),
			Bottom:   bind([]string{"end", "G"}, "end", "bottom"),
			Close:    bind([]string{"esc", "q", "f1", "ctrl+g"}, "f1 or esc", "closes help"),
		},
		ChatList: chatKeys{
			Up:      bind([]string{"up", "k"}, "↑/k", "chats: previous"),
			Down:    bind([]string{"down", "j"}, "↓/j", "chats: next"),
			Open:    bind([]string{"enter"}, "enter", "open"),
			New:     bind([]string{"n"}, "n", "chats: new chat"),
			Archive: bind([]string{"a"}, "a", "chats: archive"),
			Delete:  bind([]string{"d"}, "d", "chats: delete (twice)"),
			Close:   bind([]string{"esc", "ctrl+o"}, "esc", "chats: close"),
		},
	}
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Focus, k.CancelReq, k.StopTask, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.Focus, k.NextField, k.LeaveForm, k.NextReq, k.PrevReq},
		{k.CancelReq, k.StopTask, k.Resend, k.Chats, k.ScrollUp, k.ScrollDown, k.Help, k.Quit},
		{k.Review.Send, k.Review.Back, k.Proposal.Accept, k.Proposal.Keep, k.Cancel.Yes, k.Cancel.No},
		{k.ChatList.Up, k.ChatList.Down, k.ChatList.New, k.ChatList.Archive, k.ChatList.Delete, k.ChatList.Close},
	}
}
