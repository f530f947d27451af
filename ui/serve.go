package ui

import (
	"followup/chat"
	"followup/forms"
)

// A chat of an MCP client's serve session (docs/mcp-serve.md) has no
// followup agent behind it: the client asks there and reads only answers.
// The screen says who asks, on the form and in the composer, which takes
// no messages there, and says when the client is gone.

// serveChat is the open chat's serve session, nil for a chat of
// followup's own agent.
func (m *model) serveChat() *chat.ServeInfo {
	if m.cur.chat == nil {
		return nil
	}
	return m.cur.chat.Serve
}

// composerPlaceholder is what the empty composer says in the open chat.
func (m *model) composerPlaceholder() string {
	s := m.serveChat()
	switch {
	case m.archived():
		return "This chat is archived and read-only — " + m.unarchiveHint() + "."
	case s == nil:
		return "Message the agent…"
	case !s.Connected:
		return clientName(s.Client) + " has disconnected; its questions here can no longer be answered."
	case s.Quiet:
		return clientName(s.Client) + " has made no call for minutes and may be gone: nobody may be waiting for your answer."
	default:
		return clientName(s.Client) + " asks here and reads only your answers — no messages."
	}
}

// unarchiveHint says how to make the open chat take messages again.
func (m *model) unarchiveHint() string {
	return m.keys.Chats.Help().Key + ", then " + m.keys.ChatList.Archive.Help().Key + ", unarchives it"
}

// clientName names an MCP client as the screen shows it.
func clientName(name string) string {
	if name == "" {
		return "An MCP client"
	}
	return forms.SanitizeLine(name)
}
