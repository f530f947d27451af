package dialog

import (
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/ui/style"
	"followup/ui/words"
)

// Confirm asks before an action that cannot be undone: cancelling
// one question, or stopping the whole task. The user opened it with their
// own key, so it takes keys at once.
type Confirm struct {
	keys ConfirmKeys
	card
	title  string // the question asked
	detail string // what yes does
	yes    Action
}

// NewCancelConfirm asks before cancelling the question q, saying who is
// told what.
func NewCancelConfirm(keys Keys, q Question) Confirm {
	promise, _ := words.CancelTells(q.Req)
	title := "Cancel this question?"
	if q.Req.Owner.Kind == chat.OwnerMCPServer {
		title = "Decline: tell " + words.AskedByName(q.Req.Owner) + " no?" // a server's word for it
	}
	return Confirm{keys: keys.Cancel, card: newCard(keys, q.Key), title: title,
		detail: promise, yes: Cancel{RequestID: q.Req.ID}}
}

// NewStopConfirm asks before stopping the task run.
func NewStopConfirm(keys Keys, runID string) Confirm {
	return Confirm{keys: keys.Stop, card: newCard(keys, ""), title: "Stop the whole task?",
		detail: "The agent stops working, its open questions expire (task stopped) and no model is called. The conversation stays.",
		yes:    Stop{RunID: runID}}
}

func (d Confirm) Update(msg tea.Msg) (Dialog, Action) {
	a, _ := d.update(msg, d.body, choice{d.keys.Yes, d.yes}, choice{d.keys.No, Close{}})
	return d, a
}

func (d Confirm) body() string { return style.Bold.Render(d.title) + "\n" + d.detail }

func (d Confirm) View(width, height int, focused bool) string {
	return d.frame(width, height, focused, d.body(), d.hint(width, focused, d.keys.Yes, d.keys.No))
}
