package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// closedCard keeps readable what the user had typed in a question that
// closed under its form (closed.go). It decides nothing: it arrives by
// itself, takes the focus by the focus rule, and goes when dismissed or
// when the user leaves the chat. It is about no open question, so a
// change to one does not close it.
type closedCard struct {
	keys    closedKeys
	scrollK scrollKeys
	title   string
	why     string
	typed   []string // "Label: value", in the form's order
	theirs  string   // the answer given elsewhere, when there is one
	box     paneBox
	scroll  scroll
}

func newClosedCard(keys keyMap, q closedQuestion, final chat.RequestView, why string) closedCard {
	c := closedCard{keys: keys.Closed, scrollK: keys.Scroll, title: forms.PlainLine(q.was.Title), why: why}
	for _, f := range q.was.Fields {
		v, ok := q.typed[f.Name]
		if !ok {
			continue
		}
		label := forms.SanitizeLine(f.DisplayLabel())
		if s, multi := v.(string); multi && strings.Contains(s, "\n") {
			c.typed = append(c.typed, label+":\n    "+strings.ReplaceAll(forms.SanitizeBlock(s), "\n", "\n    "))
			continue
		}
		c.typed = append(c.typed, words.Labelled(label, f.ValueLine(v)))
	}
	if final.Answer != nil {
		c.theirs = forms.SanitizeLine(words.SummarizeValues(final, final.Answer.Values))
	}
	return c
}

func (d closedCard) about() string    { return "" }
func (d closedCard) fullScreen() bool { return false }

func (d closedCard) update(msg tea.Msg) (dialog, action) {
	switch msg := msg.(type) {
	case sizeMsg:
		d.box = paneBox{msg.width, msg.height}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, d.keys.Dismiss):
			return d, closeAct{}
		case d.scroll.move(msg, d.scrollK, len(d.box.lines(d.body())), d.box.rows()):
			return d, nil
		}
		return d, passAct{}
	}
	return d, nil
}

func (d closedCard) body() string {
	var b strings.Builder
	b.WriteString(style.Bold.Render("“"+d.title+"” "+d.why) + "\n")
	if d.theirs != "" {
		b.WriteString(style.Dim.Render("Answered there: "+d.theirs) + "\n")
	}
	b.WriteString("What you had typed (not sent):\n")
	for _, l := range d.typed {
		b.WriteString("  " + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func (d closedCard) view(width, height int, focused bool) string {
	box := paneBox{width, height}
	hint := style.HintsFit(box.inner(), d.keys.Dismiss, style.Relabel(d.keys.Focus, "to the composer"))
	if !focused {
		// Its keys act once it has the focus.
		hint = style.Dim.Render(style.HintsFit(box.inner(), style.Relabel(d.keys.Focus, "to read it, then "+d.keys.Dismiss.Help().Key+" dismisses it")))
	}
	return box.draw(style.DialogFrame(focused), d.body(), hint, d.scroll, d.scrollK)
}

// quietCard reports whether the pane's top dialog is a closed card drawn
// as one line above a question still open: it keeps what was typed in
// the question that closed without covering the next one's form, and
// opens (focus on it) from the form with the focus key.
func (m *model) quietCard() bool {
	o, ok := m.dialogs.pane()
	if !ok || m.focus == focusDialog || len(m.pane.pending) == 0 {
		return false
	}
	_, card := o.d.(closedCard)
	return card
}

// quiet is the card's one line above the next question's form.
func (d closedCard) quiet(focusKey string) string {
	return "“" + d.title + "” " + d.why + " · what you typed: " + focusKey + " from the form"
}

// waiting is the line drawn above the form while the user types in it.
func (d closedCard) waiting() string {
	return "“" + d.title + "” " + d.why + " — what you had typed opens when you pause."
}
