package ui

import (
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
)

// The status line's spinner turns only while it is drawn (a task runs or
// the model answers): its tick redraws the whole screen twelve times a
// second, which an idle screen must not pay for. A run that waits for the
// user — a server's question in the middle of a tool call keeps the drive
// going — is not working: nothing turns while the user has the word.

// spinState is the spinner, and whether its ticks stopped while it was
// not drawn.
type spinState struct {
	spinner.Model
	stopped bool
}

func (m *model) spinning() bool {
	return (m.driving || m.tr.Thinking()) && (m.cur.run == nil || m.cur.run.State != chat.RunWaitingInput)
}

// onSpinTick turns the spinner, or lets its ticks stop while it is not
// drawn.
func (m *model) onSpinTick(msg spinner.TickMsg) tea.Cmd {
	if !m.spinning() {
		m.spin.stopped = true
		return nil
	}
	var cmd tea.Cmd
	m.spin.Model, cmd = m.spin.Update(msg)
	m.spinRows()
	return cmd
}

// spinAgain starts the ticks again when the spinner is drawn once more.
func (m *model) spinAgain() tea.Cmd {
	if !m.spin.stopped || !m.spinning() {
		return nil
	}
	m.spin.stopped = false
	return m.spin.Tick
}
