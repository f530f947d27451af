package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// reviewDialog shows exactly what will be sent for one question revision;
// only confirming it records the answer. It scrolls when it is taller
// than the pane.
type reviewDialog struct {
	keys    reviewKeys
	scrollK scrollKeys
	q       question
	box     paneBox
	scroll  scroll
	sending bool // the answer is on its way: a second enter sends nothing
}

func newReview(keys keyMap, q question) reviewDialog {
	return reviewDialog{keys: keys.Review, scrollK: keys.Scroll, q: q}
}

func (d reviewDialog) about() string    { return d.q.key }
func (d reviewDialog) fullScreen() bool { return false }

func (d reviewDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case questionMsg:
		if msg.key == d.q.key {
			d.q = question(msg)
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Back):
			return d, backAct{}
		case key.Matches(msg, d.keys.Send):
			if len(d.q.problems) > 0 || d.sending {
				return d, nil // the review lists the problems; esc goes back to fix them
			}
			d.sending = true
			return d, sendAct{}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d reviewDialog) body() string {
	var b strings.Builder
	b.WriteString(style.Bold.Render("Review before sending") + "\n\n")
	b.WriteString(forms.Review(d.q.req.Definition, d.q.req.Supplied, d.q.shown, d.box.inner()))
	if len(d.q.problems) > 0 {
		b.WriteString("\n" + words.ProblemList(d.q.problems))
	}
	return b.String()
}

func (d reviewDialog) view(width, height int, focused bool) string {
	box := paneBox{width, height}
	send := d.keys.Send
	if len(forms.Missing(d.q.req.Definition, d.q.req.Supplied, d.q.shown)) > 0 {
		send = style.Relabel(send, "save partial answer") // the question stays open for the rest
	}
	hint := style.FocusHint(paneBox{width, height}.inner(), focused, d.keys.Focus, send, d.keys.Back, d.keys.Cancel)
	if len(d.q.problems) > 0 {
		hint = style.FocusHint(paneBox{width, height}.inner(), focused, d.keys.Focus, style.Relabel(d.keys.Back, "back to editing to fix "+forms.Plural(len(d.q.problems), "it", "them")), d.keys.Cancel)
	}
	return box.draw(style.PaneFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}
