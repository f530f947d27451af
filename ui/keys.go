// Package ui is followup's chat screen: a Bubble Tea program with the
// transcript on top, pending input requests drawn as forms above the
// composer, and a status line. It talks to the chat host only through
// tea.Cmds and the host's events; it opens no database and calls no model.
package ui

import (
	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every binding of the screen. The help view is generated from
// it, so what help says and what the keys do cannot disagree.
type keyMap struct {
	Send       key.Binding
	Newline    key.Binding
	Focus      key.Binding
	NextField  key.Binding
	LeaveForm  key.Binding
	NextReq    key.Binding
	PrevReq    key.Binding
	CancelReq  key.Binding
	StopTask   key.Binding
	Resend     key.Binding
	Chats      key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
	Help       key.Binding
	Quit       key.Binding

	Confirm key.Binding
	Back    key.Binding
	Accept  key.Binding
	Keep    key.Binding
	Yes     key.Binding
	No      key.Binding

	ChatUp      key.Binding
	ChatDown    key.Binding
	ChatNew     key.Binding
	ChatArchive key.Binding
	ChatDelete  key.Binding
	ChatClose   key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		Send:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send message")),
		Newline: key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		Focus:   key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "form ⇄ composer")),
		// Handled by the form itself; listed so help shows it.
		NextField:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab/⇧tab", "next/previous field")),
		LeaveForm:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave form (draft kept)")),
		NextReq:    key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "next question")),
		PrevReq:    key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "previous question")),
		CancelReq:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel this question")),
		StopTask:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "stop the whole task")),
		Resend:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "resume interrupted run")),
		Chats:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "chats")),
		ScrollUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up")),
		ScrollDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Help:       key.NewBinding(key.WithKeys("f1", "ctrl+g"), key.WithHelp("f1", "help")),
		Quit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),

		Confirm: key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter", "send answer")),
		Back:    key.NewBinding(key.WithKeys("esc", "e"), key.WithHelp("esc", "back to editing")),
		Accept:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept proposal")),
		Keep:    key.NewBinding(key.WithKeys("k", "esc"), key.WithHelp("k", "keep mine")),
		Yes:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:      key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "no")),

		ChatUp:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "chats: previous")),
		ChatDown:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "chats: next")),
		ChatNew:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "chats: new chat")),
		ChatArchive: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "chats: archive")),
		ChatDelete:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d d", "chats: delete")),
		ChatClose:   key.NewBinding(key.WithKeys("esc", "ctrl+o"), key.WithHelp("esc", "chats: close")),
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
		{k.Confirm, k.Back, k.Accept, k.Keep, k.Yes, k.No},
		{k.ChatUp, k.ChatDown, k.ChatNew, k.ChatArchive, k.ChatDelete, k.ChatClose},
	}
}
