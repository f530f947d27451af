package ui

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"followup/agent"
	"followup/chat"
	"followup/ui/transcript"
)

// trIn is what the transcript is drawn from now.
func (m *model) trIn() transcript.Input {
	return transcript.Input{ChatID: m.cur.chatID, Messages: m.cur.messages, Data: m.entryData(), Width: m.width, Height: m.height,
		HelpKey: m.keys.Help.Help().Key, Offline: m.start.provider == agent.Offline{}.Name()}
}

// refreshTranscript gives the transcript the chat as it is now.
func (m *model) refreshTranscript() { m.tr.Refresh(m.trIn()) }

// maybeLoadOlder asks for the page before the oldest shown message when the
// transcript is scrolled to its top. Call it after scrolling up.
func (m *model) maybeLoadOlder() tea.Cmd {
	if before := m.tr.OlderBefore(m.trIn()); before != 0 {
		return loadOlder(m.svc, m.cur.chatID, before)
	}
	return nil
}

// An older page goes an older page above the transcript, keeping the lines the
// user is reading where they are.
func (msg olderMsg) apply(m *model) tea.Cmd {
	// The chat and its first page are still those the page was read for.
	fits := msg.chatID == m.cur.chatID && len(m.cur.messages) > 0 && m.cur.messages[0].ID == msg.before
	if !m.tr.OlderRead(msg.before, msg.err == nil && fits && len(msg.messages) == 0) {
		return nil
	}
	if msg.err != nil {
		m.setErr("", msg.err)
		return nil
	}
	if !fits || len(msg.messages) == 0 {
		return nil
	}
	reqs := make(map[string]chat.RequestView, len(m.cur.requests)+len(msg.requests))
	for _, r := range msg.requests {
		reqs[r.ID] = r
	}
	maps.Copy(reqs, m.cur.requests)
	back := m.tr.Hold()
	m.cur.messages = slices.Concat(msg.messages, m.cur.messages)
	m.cur.requests = reqs
	m.mcp.addSteps(msg.steps)
	m.tr.Changed()
	m.refreshTranscript()
	back()
	return nil
}

// onStream takes a stream event for the chat on screen.
func (m *model) onStream(e chat.Event) tea.Cmd {
	cmd, reload := m.tr.OnStream(e, m.cur.loadSeq, m.cur.messages)
	if reload {
		return m.load(m.cur.chatID)
	}
	return cmd
}

// toolRunning reports whether a tool row on screen shows a running call.
func (m *model) toolRunning() bool {
	for _, v := range m.mcp.steps {
		if v.State == "started" {
			return true
		}
	}
	return false
}

// entryData is what the transcript is drawn from now.
func (m *model) entryData() transcript.Data {
	look := transcript.Look{Unfolded: m.mcp.unfolded, Idle: m.interrupted(), Servers: m.keys.Servers.Keys()[0]}
	if m.spinning() {
		look.Spin = m.spin.View()
	}
	return transcript.Data{Reqs: m.cur.requests, Steps: m.mcp.steps, Look: look, Progress: m.mcp.progress}
}

// toggleRows folds or unfolds every tool row.
func (m *model) toggleRows() {
	m.mcp.unfolded = !m.mcp.unfolded
	word := "folded"
	if m.mcp.unfolded {
		word = "unfolded: arguments and results in full"
	}
	if len(m.mcp.steps) == 0 {
		word += " (this chat has none yet)"
	}
	m.setStatus("Tool calls "+word+".", false)
	m.tr.Changed()
	m.refreshTranscript()
}

// spinRows redraws the running calls' rows with the spinner's new frame.
func (m *model) spinRows() {
	if m.toolRunning() {
		m.tr.Changed()
		m.refreshTranscript()
	}
}
