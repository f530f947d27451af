package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
)

// confirmDialog asks before an action that cannot be undone: cancelling
// one question, or stopping the whole task. The user opened it with their
// own key, so it takes keys at once.
type confirmDialog struct {
	keys   confirmKeys
	title  string // the question asked
	detail string // what yes does
	target string // the question (liveKey) it is about, "" for the task
	yes    action
}

// newCancelConfirm asks before cancelling the question q.
func newCancelConfirm(keys confirmKeys, q question) confirmDialog {
	return confirmDialog{keys: keys, title: "Cancel this question?", target: q.key,
		detail: "“" + forms.SanitizeLine(q.req.Title) + "” is withdrawn and the agent is told; the task goes on without it.",
		yes:    cancelAct{requestID: q.req.ID}}
}

// newStopConfirm asks before stopping the task run.
func newStopConfirm(keys confirmKeys, runID string) confirmDialog {
	return confirmDialog{keys: keys, title: "Stop the whole task?",
		detail: "The agent stops working, its open questions expire (task stopped) and no model is called.\nThe conversation stays.",
		yes:    stopAct{runID: runID}}
}

func (d confirmDialog) about() string    { return d.target }
func (d confirmDialog) fullScreen() bool { return false }

func (d confirmDialog) update(msg tea.Msg) (dialog, action) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, d.keys.Yes):
			return d, d.yes
		case key.Matches(k, d.keys.No):
			return d, closeAct{}
		}
		return d, passAct{}
	}
	return d, nil
}

func (d confirmDialog) view(width, height int, focused bool) string {
	return dialogStyle(focused).Width(width - 4).Render(stBold.Render(d.title) + "\n" + d.detail + "\n" +
		focusHint(focused, d.keys.Focus, d.keys.Yes, d.keys.No))
}
