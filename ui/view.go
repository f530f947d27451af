package ui

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/dialog"
	"followup/ui/style"
	"followup/ui/words"
)

// paneView is the area above the composer: tab row plus the active form,
// or the dialog drawn in the pane (the review, a confirmation, a proposal).
func (m *model) paneView(s layoutSpec) string {
	o, hasDialog := m.dialogs.Pane()
	if len(m.pane.pending) == 0 && !hasDialog {
		return ""
	}
	// A dialog that arrived while the user types in the form waits above
	// it, in one line, until the focus rule gives it the focus.
	var waitLine string
	if c, ok := o.D.(dialog.Closed); ok && hasDialog && m.quietCard() {
		hasDialog = false
		waitLine = style.States["pending"].Render(style.Truncate(c.Quiet(m.keys.Focus.Help().Key), m.width))
	} else if w, ok := o.D.(dialog.Waiter); ok && o.Arrived && m.focus == focusForm {
		hasDialog = false
		waitLine = style.States["pending"].Render(style.Truncate(w.Waiting(), m.width))
	}
	var parts []string
	if m.showTabs() {
		parts = append(parts, m.tabRow())
	}
	r, ok := m.pane.activeRequest()
	inner := style.PaneInner(m.width)
	var body string
	switch {
	case hasDialog:
		body = o.D.View(m.dialogBox.Width, m.dialogBox.Height, m.focus == focusDialog)
	case !ok:
		return ""
	case m.archived():
		body = style.Framed(style.PaneDim, m.width, style.Bold.Render(forms.PlainLine(r.Title))+"\n"+
			style.Dim.Render("This chat is archived: its questions cannot be answered or cancelled until it is unarchived ("+
				m.keys.Chats.Help().Key+", then "+m.keys.ChatList.Archive.Help().Key+")."))
	case m.pane.live == nil:
		body = style.Framed(style.PaneDim, m.width, style.Dim.Render("loading form…"))
	default:
		form := m.pane.live.View()
		var tail []string
		if ps := m.pane.unplaced; len(ps) > 0 {
			tail = append(tail, style.Truncate(problemLine(ps), inner))
		}
		tail = append(tail, style.Dim.Render(m.formHint(r, inner)))
		// The head takes what the pane has left at its most: the frame,
		// the tab row, a waiting line, the form and the lines under it.
		room := s.paneMax - 2 - len(parts) - lipgloss.Height(form) - len(tail)
		if waitLine != "" {
			room--
		}
		who := words.AskedBy(r.Owner)
		if sc := m.serveChat(); sc != nil && sc.Quiet && r.Owner.Kind == chat.OwnerMCPClient {
			who += " — its client may be gone (no call for minutes): " + m.keys.CancelReq.Help().Key + " cancels"
		}
		if r.Origin != nil {
			who = strings.TrimSpace(cmp.Or(who, "asked") + forms.SanitizeLine(r.Origin.While()))
		}
		lines := paneHead(r, who, s.paneHead, inner, room, m.keys.ReadAll)
		lines = append(append(lines, form), tail...)
		body = style.Framed(style.PaneFrame(m.focus == focusForm), m.width, strings.Join(lines, "\n"))
	}
	if waitLine != "" {
		parts = append(parts, waitLine)
	}
	parts = append(parts, body)
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

// formHint is the form's hint line: the keys that apply to it now, as
// many as fit in width.
func (m *model) formHint(r chat.RequestView, width int) string {
	k := m.keys
	if m.focus != focusForm {
		return style.HintsFit(width, style.Relabel(k.Focus, "to answer"), k.CancelReq)
	}
	var bs []key.Binding
	if asked(r) > 1 {
		bs = append(bs, k.NextField)
	}
	bs = append(bs, k.Continue)
	own := m.pane.live.KeyBinds()
	bs = append(bs, own...)
	if !takes(own, k.LeaveForm) {
		bs = append(bs, k.LeaveForm)
	}
	return style.HintsFit(width, append(bs, k.CancelReq)...)
}

// takes reports whether one of the field's bindings has a key of b: the
// field then takes that key (esc ending a filter, not leaving the form).
func takes(field []key.Binding, b key.Binding) bool {
	for _, f := range field {
		for _, fk := range f.Keys() {
			if slices.Contains(b.Keys(), fk) {
				return true
			}
		}
	}
	return false
}

// asked is how many fields the form asks (those not already supplied).
func asked(r chat.RequestView) int {
	n := 0
	for _, f := range r.Fields {
		if _, known := r.Supplied[f.Name]; !known {
			n++
		}
	}
	return n
}

// problemLine is a problem no field shows beside it, after how many there
// are: a narrow line cuts the message, never the count.
func problemLine(ps []forms.Problem) string {
	line := "✗ " + forms.SanitizeLine(ps[0].Message)
	if len(ps) > 1 {
		line = "✗ " + style.Plural(len(ps), "problem", "problems") + ": " + forms.SanitizeLine(ps[0].Message)
	}
	return style.Error.Render(line)
}

// trimValuesPath is the field name a problem's path points at.
func trimValuesPath(path string) string { return strings.TrimPrefix(path, "/values/") }

func mergeValues(sets ...forms.Values) forms.Values {
	out := forms.Values{}
	for _, s := range sets {
		maps.Copy(out, s)
	}
	return out
}

// quietCard reports whether the pane's top dialog is a closed card drawn
// as one line above a question still open: it keeps what was typed in
// the question that closed without covering the next one's form, and
// opens (focus on it) from the form with the focus key.
func (m *model) quietCard() bool {
	o, ok := m.dialogs.Pane()
	if !ok || m.focus == focusDialog || len(m.pane.pending) == 0 {
		return false
	}
	_, card := o.D.(dialog.Closed)
	return card
}
