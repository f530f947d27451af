package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/style"
	"followup/ui/words"
)

// confirmDialog asks before an action that cannot be undone: cancelling
// one question, or stopping the whole task. The user opened it with their
// own key, so it takes keys at once.
type confirmDialog struct {
	keys    confirmKeys
	scrollK scrollKeys
	title   string // the question asked
	detail  string // what yes does
	target  string // the question (liveKey) it is about, "" for the task
	yes     action
	box     paneBox
	scroll  scroll
}

// newCancelConfirm asks before cancelling the question q, saying who is
// told what.
func newCancelConfirm(keys keyMap, q question) confirmDialog {
	promise, _ := words.CancelTells(q.req)
	title := "Cancel this question?"
	if q.req.Owner.Kind == chat.OwnerMCPServer {
		title = "Decline: tell " + words.AskedByName(q.req.Owner) + " no?" // a server's word for it
	}
	return confirmDialog{keys: keys.Cancel, scrollK: keys.Scroll, title: title, target: q.key,
		detail: promise, yes: cancelAct{requestID: q.req.ID}}
}

// newStopConfirm asks before stopping the task run.
func newStopConfirm(keys keyMap, runID string) confirmDialog {
	return confirmDialog{keys: keys.Stop, scrollK: keys.Scroll, title: "Stop the whole task?",
		detail: "The agent stops working, its open questions expire (task stopped) and no model is called. The conversation stays.",
		yes:    stopAct{runID: runID}}
}

func (d confirmDialog) about() string    { return d.target }
func (d confirmDialog) fullScreen() bool { return false }

func (d confirmDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Yes):
			return d, d.yes
		case key.Matches(msg, d.keys.No):
			return d, closeAct{}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d confirmDialog) body() string { return style.Bold.Render(d.title) + "\n" + d.detail }

func (d confirmDialog) view(width, height int, focused bool) string {
	return paneBox{width, height}.draw(style.DialogFrame(focused), d.body(),
		style.FocusHint(paneBox{width, height}.inner(), focused, d.keys.Focus, d.keys.Yes, d.keys.No), d.scroll, d.scrollK)
}
