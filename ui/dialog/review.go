package dialog

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
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
	q       Question
	sending bool // the answer is on its way: a second enter sends nothing
}

func NewReview(keys Keys, q Question) Review {
	return Review{keys: keys.Review, card: newCard(keys, q.Key), q: q}
}

func (d Review) Update(msg tea.Msg) (Dialog, Action) {
	if d.take(msg, d.body) {
		return d, nil
	}
	switch msg := msg.(type) {
	case Question:
		if msg.Key == d.q.Key {
			d.q = Question(msg)
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Back):
			return d, Back{}
		case key.Matches(msg, d.keys.Send):
			if len(d.q.Problems) > 0 || d.sending {
				return d, nil // the review lists the problems; esc goes back to fix them
			}
			d.sending = true
			return d, Send{}
		}
		return d, Pass{}
	}
	return d, nil
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
