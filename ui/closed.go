package ui

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/words"
)

// A question answered or closed elsewhere while its form is on screen (the
// CLI, another window, its deadline, its MCP server or client gone) is
// said in one line, and what the user had typed in it stays readable, in a
// card in the pane, until they dismiss it or leave the chat. It is one
// mechanism for every kind of close; the questions this screen answers,
// cancels or stops itself are not news.

// closedQuestion is the question that closed under its form, and what the
// user had typed in it.
type closedQuestion struct {
	was   chat.RequestView // as the form showed it
	typed forms.Values     // the form's draft: what the user typed or confirmed
}

// closedMsg brings the closed question's final state when the snapshot
// did not hold it.
type closedMsg struct {
	q     closedQuestion
	final chat.RequestView
	err   error
}

func (msg closedMsg) apply(m *model) tea.Cmd {
	if msg.err == nil && msg.final.ChatID == m.cur.chatID {
		return m.showClosed(msg.q, msg.final)
	}
	return nil
}

// closing marks a question this screen is closing itself (answering,
// cancelling, stopping its task).
func (p *formPane) closing(requestID string) { p.closedHere[requestID] = true }

// notClosing forgets that this screen was closing the questions ids: its
// cancel or stop failed, so whatever closes them later is news.
func (p *formPane) notClosing(ids []string) {
	for _, id := range ids {
		delete(p.closedHere, id)
	}
}

// closedUnder is the question shown with its form that s no longer has
// open, unless this screen closed it; call it before the pane adopts s.
func (m *model) closedUnder(s snapshotMsg) *closedQuestion {
	r, ok := m.pane.activeRequest()
	if !ok || m.pane.live == nil || m.pane.closedHere[r.ID] {
		return nil
	}
	if slices.ContainsFunc(s.pending, func(q chat.RequestView) bool { return q.ID == r.ID }) {
		return nil
	}
	return &closedQuestion{was: r, typed: m.pane.live.Draft()}
}

// sayClosed says why the question closed, from its final state in s (or
// read now), and shows what the user had typed.
func (m *model) sayClosed(q *closedQuestion, s snapshotMsg) tea.Cmd {
	if q == nil {
		return nil
	}
	if final, ok := s.requests[q.was.ID]; ok {
		return m.showClosed(*q, final)
	}
	return readClosed(m.svc, *q)
}

// readClosed reads the final state of the question q was.
func readClosed(svc *chat.Service, q closedQuestion) tea.Cmd {
	return func() tea.Msg {
		final, err := svc.Request(context.Background(), q.was.ID)
		return closedMsg{q: q, final: final, err: err}
	}
}

// showClosed says in one line why the question closed and, when the user
// had typed something in it, opens the card that keeps it readable.
func (m *model) showClosed(q closedQuestion, final chat.RequestView) tea.Cmd {
	title := "“" + forms.PlainLine(q.was.Title) + "”"
	why := closedWhy(final)
	typedSome := len(q.typed) > 0 && len(unsentOf(q.typed, nil)) > 0
	q.typed = unsentOf(q.typed, closedValues(final))
	if len(q.typed) == 0 {
		if typedSome {
			// What the user typed is what was answered: nothing of theirs
			// is lost, and the line says so.
			why += ", with what you had typed"
		}
		m.setStatus(title+" "+why+".", false)
		return nil
	}
	m.setStatus("", false) // the card says it: one moment, one line
	return m.open(dialog.NewClosed(m.keys.Keys, q.was, q.typed, final, why), true)
}

// closedValues is what a closed request holds: the values confirmed
// before, and its answer's.
func closedValues(r chat.RequestView) forms.Values {
	out := mergeValues(r.Supplied, r.Partial)
	if r.Answer != nil {
		out = mergeValues(out, r.Answer.Values)
	}
	return out
}

// unsentOf is what was typed that the closed request does not hold: each
// field with a value typed here (a field passed by empty holds nothing)
// that differs from the value the request ended with. Values answered
// elsewhere exactly as typed here are not "what you had typed (not
// sent)": they were sent, by the other hand.
func unsentOf(typed, held forms.Values) forms.Values {
	out := forms.Values{}
	for name, v := range typed {
		h, had := held[name]
		if chat.EditedHere(v, nil, h, had) {
			out[name] = v
		}
	}
	return out
}

// closedWhy says how a request closed, after its title, as the one line
// does: "was answered from another window", "expired: its deadline passed".
func closedWhy(r chat.RequestView) string {
	switch r.State {
	case chat.RequestAnswered:
		return "was answered from another window"
	case chat.RequestCancelled:
		return "was cancelled elsewhere"
	case chat.RequestExpired:
		switch why := words.Expired(r); {
		case r.ClosedReason == "withdrawn":
			return "was " + why
		case r.ClosedReason == "disconnected":
			return "was closed: " + words.AskedByName(r.Owner) + " disconnected"
		case why != "":
			return "expired: " + why
		}
		return "expired"
	}
	return "was closed elsewhere"
}

// notAnswered follows an answer the host refused. Problems are drawn by
// their fields; a question closed meanwhile is said as any close is, what
// was typed kept readable; one answered in part or revised meanwhile stays
// on screen and takes what changed (confirmed.go) — nothing was sent.
func (m *model) notAnswered(a answeredMsg) tea.Cmd {
	e := chat.AsError(a.err)
	delete(m.pane.closedHere, a.sent.was.ID) // it is not closing by this screen's hand
	m.closeAbout("")
	_, partly := e.Details["partial"]
	switch {
	case e.Code == chat.CodeTargetClosed:
		m.dropForm()
		m.setErr("Nothing was sent: ", a.err)
		return tea.Batch(m.load(m.cur.chatID), readClosed(m.svc, a.sent))
	case e.Code == chat.CodeStaleTarget && partly:
		m.pane.staleSend = true
		m.setStatus("Nothing was sent: the question was partly answered elsewhere meanwhile.", true)
	case e.Code == chat.CodeStaleTarget:
		m.setStatus("Nothing was sent: the question was revised meanwhile.", true)
	default:
		if ps, ok := e.Details["problems"].([]forms.Problem); ok {
			m.pane.problems = ps
			m.setStatus("The answer was not sent: fix what the form marks.", true)
		} else {
			m.setErr("", a.err)
		}
	}
	var back tea.Cmd
	if m.pane.live != nil {
		// Only a key after the send took the user to the composer.
		back = m.backToForm(time.Time{})
	}
	return tea.Batch(back, m.load(m.cur.chatID), m.pane.edit())
}
