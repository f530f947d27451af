package dialog

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
	"followup/ui/words"
)

// Closed keeps readable what the user had typed in a question that
// closed under its form (ui/closed.go). It decides nothing: it arrives by
// itself, takes the focus by the focus rule, and goes when dismissed or
// when the user leaves the chat. It is about no open question, so a
// change to one does not close it.
type Closed struct {
	keys ClosedKeys
	card
	title  string
	why    string
	typed  []string // "Label: value", in the form's order
	theirs string   // the answer given elsewhere, when there is one
}

// NewClosed is the card of the question was, closed with final (why says
// how), and what the user had typed in it.
func NewClosed(keys Keys, was chat.RequestView, typed forms.Values, final chat.RequestView, why string) Closed {
	c := Closed{keys: keys.Closed, card: newCard(keys, ""), title: forms.PlainLine(was.Title), why: why}
	for _, f := range was.Fields {
		v, ok := typed[f.Name]
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

func (d Closed) Update(msg tea.Msg) (Dialog, Action) {
	a, _ := d.update(msg, d.body, choice{d.keys.Dismiss, Close{}})
	return d, a
}

func (d Closed) body() string {
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

func (d Closed) View(width, height int, focused bool) string {
	inner := style.PaneInner(width)
	hint := style.HintsFit(inner, d.keys.Dismiss, style.Relabel(d.focusK, "to the composer"))
	if !focused {
		// Its keys act once it has the focus.
		hint = style.Dim.Render(style.HintsFit(inner, style.Relabel(d.focusK, "to read it, then "+d.keys.Dismiss.Help().Key+" dismisses it")))
	}
	return d.frame(width, height, focused, d.body(), hint)
}

// Quiet is the card's one line above the next question's form.
func (d Closed) Quiet(focusKey string) string {
	return "“" + d.title + "” " + d.why + " · what you typed: " + focusKey + " from the form"
}

// Waiting is the line drawn above the form while the user types in it.
func (d Closed) Waiting() string {
	return "“" + d.title + "” " + d.why + " — what you had typed opens when you pause."
}
