package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/forms"
)

// reviewDialog shows exactly what will be sent for one question revision;
// only confirming it records the answer.
type reviewDialog struct {
	keys    reviewKeys
	q       question
	sending bool // the answer is on its way: a second enter sends nothing
}

func newReview(keys reviewKeys, q question) reviewDialog { return reviewDialog{keys: keys, q: q} }

func (d reviewDialog) about() string    { return d.q.key }
func (d reviewDialog) fullScreen() bool { return false }

func (d reviewDialog) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
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
		}
		return d, passAct{}
	}
	return d, nil
}

func (d reviewDialog) view(width, height int, focused bool) string {
	var b strings.Builder
	b.WriteString(stBold.Render("Review before sending") + "\n\n")
	b.WriteString(forms.Review(d.q.req.Definition, d.q.req.Supplied, d.q.shown, width-8))
	if len(d.q.problems) > 0 {
		b.WriteString("\n" + problemList(d.q.problems) + "\n\n" + hints(relabel(d.keys.Back, "back to editing to fix them")))
	} else {
		b.WriteString("\n\n" + focusHint(focused, d.keys.Focus, d.keys.Send, d.keys.Back))
	}
	return paneStyle(focused).Width(width - 4).Render(b.String())
}
