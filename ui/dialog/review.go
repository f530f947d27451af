package dialog

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// Review shows exactly what will be sent for one question revision;
// only confirming it records the answer. It scrolls when it is taller
// than the pane.
type Review struct {
	keys ReviewKeys
	card
	q Question
}

func NewReview(keys Keys, q Question) Review {
	return Review{keys: keys.Review, card: newCard(keys, q.Key), q: q}
}

func (d Review) Update(msg tea.Msg) (Dialog, Action) {
	if q, ok := msg.(Question); ok && q.Key == d.q.Key {
		d.q = q
	}
	var send Action = Send{}
	if len(d.q.Problems) > 0 {
		send = nil // the review lists the problems; esc goes back to fix them
	}
	a, _ := d.update(msg, d.body, choice{d.keys.Back, Back{}}, choice{d.keys.Send, send})
	return d, a
}

func (d Review) body() string {
	var b strings.Builder
	b.WriteString(style.Bold.Render("Review before sending") + "\n\n")
	b.WriteString(forms.Review(d.q.Req.Definition, d.q.Req.Supplied, d.q.Shown, d.box.inner()))
	if len(d.q.Problems) > 0 {
		b.WriteString("\n" + words.ProblemList(d.q.Problems))
	}
	return b.String()
}

func (d Review) View(width, height int, focused bool) string {
	send := d.keys.Send
	if len(forms.Missing(d.q.Req.Definition, d.q.Req.Supplied, d.q.Shown)) > 0 {
		send = style.Relabel(send, "save partial answer") // the question stays open for the rest
	}
	hint := d.hint(width, focused, send, d.keys.Back, d.keys.Cancel)
	if len(d.q.Problems) > 0 {
		hint = d.hint(width, focused, style.Relabel(d.keys.Back, "back to editing to fix "+forms.Plural(len(d.q.Problems), "it", "them")), d.keys.Cancel)
	}
	return paneBox{width, height}.draw(style.PaneFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}
