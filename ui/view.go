package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/forms"
)

// formWidth and formHeight are the size forms are built at now.
func (m *model) formWidth() int { w, _ := formSize(m.width, m.height); return w }

func (m *model) formHeight() int { _, h := formSize(m.width, m.height); return h }

// paneView is the area above the composer: tab row plus the active form,
// or the dialog drawn in the pane (the review, a confirmation, a proposal).
func (m *model) paneView() string {
	o, hasDialog := m.dialogs.pane()
	if len(m.pane.pending) == 0 && !hasDialog {
		return ""
	}
	// A dialog that arrived while the user types in the form waits above
	// it, in one line, until the focus rule gives it the focus.
	var waitLine string
	if w, ok := o.d.(waiter); ok && o.arrived && m.focus == focusForm {
		hasDialog = false
		waitLine = stateStyles["pending"].Render(truncate(w.waiting(), m.width))
	}
	var parts []string
	if len(m.pane.pending) > 1 {
		parts = append(parts, m.tabRow())
	}
	r, ok := m.activeRequest()
	var body string
	switch {
	case hasDialog:
		body = o.d.view(m.width, m.height, m.focus == focusDialog)
	case !ok:
		return ""
	case m.archived():
		body = stPaneDim.Width(m.width - 4).Render(stBold.Render(forms.SanitizeLine(r.Title)) + "\n" +
			stDim.Render("This chat is archived: its questions can no longer be answered or cancelled."))
	case m.pane.live == nil:
		body = stPaneDim.Width(m.width - 4).Render(stDim.Render("loading form…"))
	default:
		// The form draws the title; the pane adds why it is asked.
		head := stDim.Render(forms.SanitizeLine(r.Reason))
		if by := askedBy(r.Owner); by != "" {
			head = stBold.Render(by) + "  " + head
		}
		if r.ExpiresAt != nil {
			head += "  " + stDim.Render("expires "+r.ExpiresAt.Local().Format("15:04"))
		}
		k := m.keys
		style := stPaneDim
		hint := stDim.Render(hints(relabel(k.Focus, "to answer"), k.CancelReq))
		if m.focus == focusForm {
			style = stPane
			hint = stDim.Render(hints(k.NextField, k.Continue, relabel(k.LeaveForm, "leave (draft kept)"), k.CancelReq))
		}
		if len(m.pane.problems) > 0 {
			hint = problemList(m.pane.problems) + "\n" + hint
		}
		body = style.Width(m.width - 4).Render(head + "\n" + m.pane.live.Form().View() + "\n" + hint)
	}
	if waitLine != "" {
		parts = append(parts, waitLine)
	}
	parts = append(parts, body)
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

func (m *model) tabRow() string {
	tabs := make([]string, 0, len(m.pane.pending))
	for i, r := range m.pane.pending {
		label := fmt.Sprintf("%d %s", i+1, truncate(forms.SanitizeLine(r.Title), 24))
		if r.ID == m.pane.active {
			tabs = append(tabs, stTabActive.Render(label))
		} else {
			tabs = append(tabs, stTab.Render(label))
		}
	}
	return strings.Join(tabs, " ") + "  " + stDim.Render(hints(either(m.keys.NextReq, m.keys.PrevReq, "switch")))
}

// problemList names every problem of the reply, one a line.
func problemList(ps []forms.Problem) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = stError.Render("✗ " + forms.SanitizeLine(p.Message))
	}
	return strings.Join(lines, "\n")
}

// trimValuesPath is the field name a problem's path points at.
func trimValuesPath(path string) string { return strings.TrimPrefix(path, "/values/") }

func mergeValues(sets ...forms.Values) forms.Values {
	out := forms.Values{}
	for _, s := range sets {
		for k, v := range s {
			out[k] = v
		}
	}
	return out
}

func truncate(s string, n int) string {
	if n < 1 {
		return ""
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func (m *model) statusLine() string {
	run := "idle"
	if m.run != nil {
		run = m.run.State
	}
	if m.driving || m.thinking {
		run = m.spin.View() + " " + run
	}
	chatState := ""
	if m.chat != nil && m.chat.State == "archived" {
		chatState = " · archived (read-only)"
	} else if s := m.serveChat(); s != nil && s.Connected {
		chatState = " · " + clientName(s.Client) + " (MCP)"
	} else if s != nil {
		chatState = " · " + clientName(s.Client) + " disconnected"
	}
	left := fmt.Sprintf(" %s · %s%s · %s ", m.provider, run, chatState, m.dbPath)
	right := " " + hints(m.keys.Help) + " "
	pad := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if pad < 0 {
		left = truncate(left, max(1, m.width-lipgloss.Width(right)))
		pad = 0
	}
	return stStatus.Render(left + strings.Repeat(" ", pad) + right)
}

func (m *model) noticeLine() string {
	switch {
	case m.status != "" && m.statusErr:
		return stError.Render(truncate(forms.SanitizeLine(m.status), m.width))
	case m.status != "":
		return stDim.Render(truncate(forms.SanitizeLine(m.status), m.width))
	case len(m.orphans) > 0:
		return stError.Render(fmt.Sprintf("%d interrupted run(s) found — %s resumes them", len(m.orphans), m.keys.Resend.Help().Key))
	case m.elsewhere > 0:
		return stateStyles["pending"].Render(fmt.Sprintf("%d question(s) wait in other chats — %s", m.elsewhere, m.keys.Chats.Help().Key))
	}
	return ""
}

func (m *model) refreshTranscript() {
	// Following the newest line, the screenful above it is all that shows;
	// scrolled up, everything is drawn now so the lines in view stay put.
	need := 0
	if m.follow {
		need = m.height
	}
	content := m.tr.render(m.messages, m.requests, m.width, need)
	if m.streaming != "" {
		content += "\n\n" + stAgent.Render("agent") + "\n" +
			lipgloss.NewStyle().Width(m.width-2).PaddingLeft(2).Render(forms.SanitizeBlock(m.streaming))
	}
	if len(m.messages) == 0 && m.streaming == "" {
		content = stDim.Render("\n  Type a message to start. Try “Check deployment” or “Plan a trip”.\n  " +
			m.keys.Help.Help().Key + " shows every key.")
	}
	if content != m.vpContent {
		m.vp.SetContent(content)
		m.vpContent = content
	}
	if m.follow {
		m.vp.GotoBottom()
	}
}
