package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
	"followup/ui/status"
	"followup/ui/style"
)

// The lines around the pane: the tab row of the open questions, the
// notice line and the status line.

// setStatus, setErr and sayDone set the notice (ui/status) as of the
// loads begun so far.
func (m *model) setStatus(s string, isErr bool) { m.notice.Set(s, isErr, m.cur.loadSeq) }

func (m *model) setErr(prefix string, err error) { m.notice.SetErr(prefix, err, m.cur.loadSeq) }

func (m *model) sayDone(s string) { m.notice.SayDone(s, m.cur.loadSeq, m.pendingIDs()) }

func (m *model) pendingIDs() []string {
	ids := make([]string, len(m.pane.pending))
	for i, r := range m.pane.pending {
		ids[i] = r.ID
	}
	return ids
}

// newElsewhere reports whether msg counts a question waiting in another
// chat that the screen had not counted.
func (m *model) newElsewhere(msg elsewhereMsg) bool {
	if m.cur.elsewhere < 0 {
		return false // the first count for this chat
	}
	if msg.n > m.cur.elsewhere {
		return true
	}
	seen := make(map[string]bool, len(m.cur.others))
	for _, r := range m.cur.others {
		seen[r.ID] = true
	}
	for _, r := range msg.others {
		if !seen[r.ID] {
			return true
		}
	}
	return false
}

// moment names what the chat on screen is doing: its state (archived or
// not), its run's state and its open questions with their proposals.
func (m *model) moment() string {
	var b strings.Builder
	if m.cur.chat != nil {
		b.WriteString(string(m.cur.chat.State) + "|")
	}
	if m.cur.run != nil {
		b.WriteString(m.cur.run.ID + ":" + string(m.cur.run.State))
	}
	for _, r := range m.pane.pending {
		fmt.Fprintf(&b, "|%s@%d:%d", r.ID, r.Revision, len(r.Proposals))
	}
	return b.String()
}

// interrupted is the set of runs no live process drives that ctrl+r
// resumes (the notice line counts them): a run left "running" by a killed
// process is not running.
func (m *model) interrupted() map[string]bool {
	out := map[string]bool{}
	for _, r := range m.cur.orphans {
		if !m.retrying.runs[r.ID] {
			out[r.ID] = true
		}
	}
	return out
}

// statusLine is the provider (and how many MCP servers are connected), the
// task's state, the database and how to get help; on a narrow screen the
// database goes first.
func (m *model) statusLine() string {
	run := "no task"
	if m.cur.run != nil {
		run = m.cur.run.State.Phrase()
		if m.interrupted()[m.cur.run.ID] {
			run = "interrupted — " + m.keys.Resend.Help().Key + " resumes it"
		}
		if m.cur.run.State == chat.RunWaitingInput && len(m.mcp.approvals) > 0 {
			run = "waiting for your approval"
		}
	}
	if m.spinning() {
		run = m.spin.View() + " " + run
	}
	if m.readOnly != "" {
		run += " · read-only database"
	} else if m.archived() {
		run += " · archived (read-only)"
	} else if s := m.serveChat(); s != nil && s.Connected {
		run += " · " + clientName(s.Client) + " (MCP)"
	} else if s != nil {
		run += " · " + clientName(s.Client) + " disconnected"
	}
	help := m.keys.Help
	if m.focus == focusComposer && m.composer.Value() == "" {
		help = m.keys.HelpQ
	}
	provider := m.start.provider
	if n, of := m.mcp.status.Connected(); of > 0 { // of the servers not disabled, how many are connected
		provider += " · " + strconv.Itoa(n) + "/" + strconv.Itoa(of) + " MCP"
	}
	return status.Bar(m.width, provider, run, m.start.dbPath, help)
}

// tabRow names the open questions, the shown one marked. When they do
// not all fit, the row shows those around the shown one, with ‹ and ›
// where more are.
func (m *model) tabRow() string {
	tabs := make([]string, len(m.pane.pending))
	active := 0
	for i, r := range m.pane.pending {
		label := fmt.Sprintf("%d %s", i+1, style.Truncate(forms.PlainLine(r.Title), 24))
		tabs[i] = style.Tab.Render(label)
		if r.ID == m.pane.active {
			tabs[i], active = style.TabActive.Render(label), i
		}
	}
	// The inbox: questions of other chats (inbox.go), after this chat's
	// own. The row is a window around the active tab, so past the first
	// tab that ends beyond a screen's width from it none can be drawn:
	// with a thousand questions elsewhere, drawing them all was most of
	// every frame.
	reach := 0
	for _, t := range tabs[active:] {
		reach += lipgloss.Width(t) + 1
	}
	for _, r := range m.cur.others {
		if reach > m.width {
			break
		}
		t := style.Tab.Render(otherTab(r))
		tabs = append(tabs, t)
		reach += lipgloss.Width(t) + 1
	}
	all := strings.Join(tabs, " ")
	hint := "  " + style.Dim.Render(style.Hints(style.Either(m.keys.NextReq, m.keys.PrevReq, "switch")))
	switch {
	case lipgloss.Width(all+hint) <= m.width:
		return all + hint
	case lipgloss.Width(all) <= m.width:
		return all
	}
	room := m.width - 4 // for ‹ and ›
	start, end, used := active, active+1, lipgloss.Width(tabs[active])
	for grew := true; grew; {
		grew = false
		if end < len(tabs) && used+1+lipgloss.Width(tabs[end]) <= room {
			used += 1 + lipgloss.Width(tabs[end])
			end, grew = end+1, true
		}
		if start > 0 && used+1+lipgloss.Width(tabs[start-1]) <= room {
			used += 1 + lipgloss.Width(tabs[start-1])
			start, grew = start-1, true
		}
	}
	row := strings.Join(tabs[start:end], " ")
	if start > 0 {
		row = "‹ " + row
	}
	if end < len(tabs) {
		row += " ›"
	}
	return style.Truncate(row, m.width)
}

// noticeLine is the composer's command list, or the notice, or else what the screen says while nothing
// happens: a read-only database, questions elsewhere, runs to resume. A
// notice never hides the questions waiting elsewhere: with no tab row to
// show them, their line stays under it.
func (m *model) noticeLine() string {
	if list := m.commandList(); list != "" {
		// While a command is typed its list stands above the notice, if any.
		if v := m.notice.View(m.width); v != "" {
			return list + "\n" + v
		}
		return list
	}
	if v := m.notice.View(m.width); v != "" {
		if m.cur.elsewhere > 0 && !m.showTabs() {
			v += "\n" + status.Lines(m.elsewhereLine(), "", style.States["pending"], m.width)
		}
		return v
	}
	if m.readOnly != "" {
		return status.Lines("Read-only database: nothing typed is saved or sent — "+m.readOnly+".", "", style.Error, m.width)
	}
	// The questions waiting elsewhere, then the runs to resume: neither
	// hides the other.
	var lines []string
	if m.cur.elsewhere > 0 {
		lines = append(lines, status.Lines(m.elsewhereLine(), "", style.States["pending"], m.width))
	}
	if n := len(m.cur.orphans); n > 0 {
		resume := style.Plural(n, "interrupted run", "interrupted runs") + " found — " + m.keys.Resend.Help().Key + forms.Plural(n, " resumes it", " resumes them")
		lines = append(lines, status.Lines(resume, "", style.Error, m.width))
	}
	return strings.Join(lines, "\n")
}
