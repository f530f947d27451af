package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// The root's side of the form pane: which area has the focus, and what
// installing, dropping or finishing a form does to it.

type focusArea int

const (
	focusComposer focusArea = iota
	focusForm
)

func (m *model) setFocus(f focusArea) {
	m.focus = f
	if f == focusComposer {
		m.composer.Focus()
	} else {
		m.composer.Blur()
	}
	m.showFormFocus()
}

// showFormFocus draws the form focused only while keys go to it: without
// colour, its focus border and cursor are how the user tells.
func (m *model) showFormFocus() {
	if m.pane.live != nil {
		m.pane.live.SetFocused(m.focus == focusForm)
	}
}

// ensureForm installs the active question's form (none in an archived
// chat, whose questions are read-only).
func (m *model) ensureForm() tea.Cmd {
	if _, ok := m.activeRequest(); !ok || m.archived() {
		m.dropForm()
		return nil
	}
	cmd, installed := m.pane.ensure()
	if installed {
		m.formInstalled()
	}
	return cmd
}

// openReview shows what the form will send.
func (m *model) openReview() { m.open(newReview(m.keys.Review, m.questionNow()), false) }

// formInstalled follows a form put on screen.
func (m *model) formInstalled() {
	if m.focusOnInstall {
		m.focusOnInstall = false
		m.setFocus(focusForm)
	}
}

// dropForm takes the form off screen: the focus goes back to the
// composer and the dialogs about the question close.
func (m *model) dropForm() {
	m.pane.drop()
	if m.focus == focusForm {
		m.setFocus(focusComposer)
	}
	m.dialogs.dropAbout("")
}

// updateForm forwards a message to the form and follows what it did.
func (m *model) updateForm(msg tea.Msg) tea.Cmd {
	cmd, out := m.pane.update(msg)
	switch out {
	case formCompleted:
		m.openReview()
	case formAborted:
		m.setFocus(focusComposer)
	}
	return cmd
}

func (m *model) onFocusTick() tea.Cmd {
	if !m.wantFocus {
		return nil
	}
	if m.pane.live == nil || m.now().Sub(m.lastKey) < focusPause {
		return focusTick()
	}
	m.wantFocus = false
	if m.focus == focusComposer && m.dialogs.empty() {
		m.setFocus(focusForm)
	}
	return nil
}

// arrivals are the dialogs that open by themselves when the shown
// question needs the user's decision; each says whether it arrives now.
var arrivals = []func(m *model) (dialog, bool){
	func(m *model) (dialog, bool) {
		r, ok := m.activeRequest()
		if !ok || len(r.Proposals) == 0 {
			return nil, false
		}
		return newProposal(m.keys.Proposal, m.questionNow()), true
	},
}

// arrive opens the first dialog that arrives now, unless one is open.
func (m *model) arrive() {
	if !m.dialogs.empty() {
		return
	}
	for _, f := range arrivals {
		if d, ok := f(m); ok {
			m.open(d, true)
			return
		}
	}
}

// archived reports whether the open chat is read-only.
func (m *model) archived() bool { return m.chat != nil && m.chat.State == "archived" }
