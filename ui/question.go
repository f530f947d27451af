package ui

import (
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
	"followup/ui/dialog"
)

// The root's side of the shown question: its form coming and going, and
// the dialogs about it.

// questionNow is the shown question for the dialogs about it.
func (m *model) questionNow() dialog.Question {
	r, ok := m.pane.activeRequest()
	if !ok {
		return dialog.Question{}
	}
	q := dialog.Question{Key: liveKey(r), Req: r, Mine: forms.Values{}, Problems: m.pane.problems}
	if l := m.pane.live; l != nil {
		q.Mine = l.Values()
		// Show what was typed, even number text that does not parse.
		q.Shown = mergeValues(r.Partial, q.Mine)
		raw := l.RawText()
		for _, p := range l.Problems() {
			if name := trimValuesPath(p.Path); raw[name] != "" {
				q.Shown[name] = raw[name]
			}
		}
	}
	return q
}

// ensureForm installs the active question's form (none in an archived
// chat, whose questions are read-only).
func (m *model) ensureForm() tea.Cmd {
	if _, ok := m.pane.activeRequest(); !ok || m.archived() {
		m.dropForm()
		return nil
	}
	return m.formInstalled(m.pane.ensure())
}

// openReview shows what the form will send.
func (m *model) openReview() tea.Cmd {
	return m.open(dialog.NewReview(m.keys.Keys, m.questionNow()), false)
}

// formInstalled follows cmd, which put a form on screen when installed:
// after a decision in the pane (a proposal accepted), the form that
// replaces the dialog keeps the focus there, unless the user typed in
// the composer meanwhile.
func (m *model) formInstalled(cmd tea.Cmd, installed bool) tea.Cmd {
	switch since := m.moves.onInstall; {
	case !installed:
	case !since.IsZero():
		m.moves.onInstall = time.Time{}
		cmd = tea.Batch(cmd, m.backToForm(since))
	case m.moves.waiting:
		cmd = tea.Batch(cmd, m.focusCheck()) // it was waiting for this form
	}
	return cmd
}

// focusNextQuestion: the user decided about the question in the pane
// (answered, cancelled or declined it there), so the chat's next question
// takes the focus once its form is on screen, as after an accepted
// proposal — unless the user has gone to the composer meanwhile.
func (m *model) focusNextQuestion(closed ...string) {
	if m.focus == focusComposer {
		return
	}
	for _, r := range m.pane.pending {
		if !slices.Contains(closed, r.ID) {
			m.moves.onInstall = m.now()
			return
		}
	}
}

// dropForm takes the form off screen: the dialogs about the question
// close and the focus goes back to the composer.
func (m *model) dropForm() {
	m.pane.drop()
	m.closeAbout("")
	if m.focus == focusForm {
		m.setFocus(focusComposer)
	}
}

// updateForm forwards a message to the form and follows what it did.
func (m *model) updateForm(msg tea.Msg) tea.Cmd {
	cmd, out := m.pane.update(msg)
	switch out {
	case formCompleted:
		return tea.Batch(cmd, m.openReview())
	case formAborted:
		m.setFocus(focusComposer)
	}
	return cmd
}

// arrivals are the dialogs that open by themselves when the shown
// question needs the user's decision; each says whether it arrives now.
// An approval or consent card is one more entry.
var arrivals = []func(m *model) (dialog.Dialog, bool){
	func(m *model) (dialog.Dialog, bool) {
		r, ok := m.pane.activeRequest()
		if !ok || len(r.Proposals) == 0 {
			return nil, false
		}
		return dialog.NewProposal(m.keys.Keys, m.questionNow()), true
	},
	approvalArrives,
	urlArrives,
}

// arrive opens the first dialog that arrives now, unless one is open.
func (m *model) arrive() tea.Cmd {
	if !m.dialogs.Empty() {
		return nil
	}
	for _, f := range arrivals {
		if d, ok := f(m); ok {
			return m.open(d, true)
		}
	}
	return nil
}

// archived reports whether the open chat is read-only.
func (m *model) archived() bool { return m.cur.chat != nil && m.cur.chat.State.Archived() }
