package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"followup/chat"
	"followup/forms"
)

// The lines around the pane: the tab row of the open questions, the
// notice line and the status line.

// The notice line's status belongs to one moment: it clears at the next
// key, when the chat's run or its questions change after it was set, when
// a question arrives in another chat (the inbox takes the line), and a
// notice that is no error after noticeFor.
// The first snapshot read after it marks the moment it speaks of ("Answer
// sent." speaks of the answer on its way; a new question ends it): one
// whose load began before the status was set speaks of an older moment.

func (m *model) setStatus(s string, isErr bool) {
	m.status, m.statusErr, m.statusAt, m.statusSeq, m.statusCode = s, isErr, "", m.loadSeq, ""
	m.statusQs = nil
	m.statusGen++
}

// noticeFor is how long a notice that is no error stays: long enough to
// read it, not so long that it stands for a moment gone by.
const noticeFor = 8 * time.Second

// noticeEndMsg ends the notice of generation gen, if it still shows.
type noticeEndMsg struct{ gen int }

func endNotice(gen int) tea.Cmd {
	return tea.Tick(noticeFor, func(time.Time) tea.Msg { return noticeEndMsg{gen} })
}

// newElsewhere reports whether msg counts a question waiting in another
// chat that the screen had not counted.
func (m *model) newElsewhere(msg elsewhereMsg) bool {
	if m.elsewhere < 0 {
		return false // the first count for this chat
	}
	if msg.n > m.elsewhere {
		return true
	}
	seen := make(map[string]bool, len(m.others))
	for _, r := range m.others {
		seen[r.ID] = true
	}
	for _, r := range msg.others {
		if !seen[r.ID] {
			return true
		}
	}
	return false
}

// sayDone sets a status about what the user just did to the questions on
// screen ("Answer sent."): any question that was not open then ends it,
// even when the first snapshot read since already holds it — an MCP
// client asks again as soon as it reads the answer.
func (m *model) sayDone(s string) {
	m.setStatus(s, false)
	m.statusQs = map[string]bool{}
	for _, r := range m.pane.pending {
		m.statusQs[r.ID] = true
	}
}

// setErr says in the status line what went wrong, as a sentence after
// prefix (e.g. "Nothing was sent: "), with the error's code after it,
// dimmed, for a bug report — never the code in place of the words.
func (m *model) setErr(prefix string, err error) {
	text, code := errWords(prefix, err)
	m.setStatus(text, true)
	m.statusCode = code
}

// errWords is an error as a sentence after prefix (e.g. "Could not read
// the chats: "), and its code for a bug report ("" for INTERNAL).
func errWords(prefix string, err error) (words, code string) {
	e := chat.AsError(err)
	words = sentence(e.Message)
	if prefix != "" {
		words = prefix + lowerFirst(words)
	}
	if e.Code != chat.CodeInternal {
		code = string(e.Code)
	}
	return words, code
}

// errLine is an error on one line of width: the words, cut to leave room
// for the code drawn dim after them.
func errLine(prefix string, err error, width int) string {
	words, code := errWords(prefix, err)
	return wordsThenCode(words, code, width)
}

// wordsThenCode draws an error's words and, dim after them, its code; too
// narrow for both, the words go first.
func wordsThenCode(words, code string, width int) string {
	if code == "" {
		return stError.Render(truncate(forms.SanitizeLine(words), width))
	}
	code = " " + code
	room := width - lipgloss.Width(code)
	if room < 20 {
		return stError.Render(truncate(forms.SanitizeLine(words), width))
	}
	return stError.Render(truncate(forms.SanitizeLine(words), room)) + stDim.Render(code)
}

// lowerFirst is s with its first letter small: a message going on after a
// prefix's colon.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// moment names what the chat on screen is doing: its state (archived or
// not), its run's state and its open questions with their proposals.
func (m *model) moment() string {
	var b strings.Builder
	if m.chat != nil {
		b.WriteString(string(m.chat.State) + "|")
	}
	if m.run != nil {
		b.WriteString(m.run.ID + ":" + string(m.run.State))
	}
	for _, r := range m.pane.pending {
		fmt.Fprintf(&b, "|%s@%d:%d", r.ID, r.Revision, len(r.Proposals))
	}
	return b.String()
}

// statusMoves clears a status whose moment has passed; call it with each
// snapshot, and the seq of its load (0: unordered).
func (m *model) statusMoves(seq int) {
	if m.status == "" || seq != 0 && seq <= m.statusSeq {
		return
	}
	for _, r := range m.pane.pending {
		if m.statusQs != nil && !m.statusQs[r.ID] { // sayDone's newcomer
			m.setStatus("", false)
			return
		}
	}
	now := m.moment()
	switch {
	case m.statusAt == "":
		m.statusAt = now
	case m.statusAt != now:
		m.setStatus("", false)
	}
}

// interrupted is the set of runs no live process drives that ctrl+r
// resumes (the notice line counts them): a run left "running" by a killed
// process is not running.
func (m *model) interrupted() map[string]bool {
	out := map[string]bool{}
	for _, r := range m.orphans {
		if !m.resuming[r.ID] {
			out[r.ID] = true
		}
	}
	return out
}

// runWords says a run's state as a person would, where its name does not.
var runWords = map[chat.RunState]string{chat.RunWaitingInput: "waiting for your answer"}

// statusLine is the provider, the task's state, the database and how to
// get help; on a narrow screen the database goes first.
func (m *model) statusLine() string {
	run := "no task"
	if m.run != nil {
		run = runWords[m.run.State]
		if run == "" {
			run = string(m.run.State)
		}
		if m.interrupted()[m.run.ID] {
			run = "interrupted — " + m.keys.Resend.Help().Key + " resumes it"
		}
	}
	run = m.approvalWords(run)
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
	right := " " + hints(relabel(help, "help")) + " "
	left := fmt.Sprintf(" %s · %s · %s ", m.withMCP(m.provider), run, m.dbPath)
	if lipgloss.Width(left)+lipgloss.Width(right) > m.width {
		left = fmt.Sprintf(" %s · %s ", m.withMCP(m.provider), run)
		right = " " + stBold.Render(help.Keys()[0]) + " help "
	}
	pad := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if pad < 0 {
		left = truncate(left, max(1, m.width-lipgloss.Width(right)))
		pad = max(0, m.width-lipgloss.Width(left)-lipgloss.Width(right))
	}
	return stStatus.Render(left + strings.Repeat(" ", pad) + right)
}

// tabRow names the open questions, the shown one marked. When they do
// not all fit, the row shows those around the shown one, with ‹ and ›
// where more are.
func (m *model) tabRow() string {
	tabs := make([]string, len(m.pane.pending))
	active := 0
	for i, r := range m.pane.pending {
		label := fmt.Sprintf("%d %s", i+1, truncate(forms.PlainLine(r.Title), 24))
		tabs[i] = stTab.Render(label)
		if r.ID == m.pane.active {
			tabs[i], active = stTabActive.Render(label), i
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
	for _, r := range m.others {
		if reach > m.width {
			break
		}
		t := stTab.Render(otherTab(r))
		tabs = append(tabs, t)
		reach += lipgloss.Width(t) + 1
	}
	all := strings.Join(tabs, " ")
	hint := "  " + stDim.Render(hints(either(m.keys.NextReq, m.keys.PrevReq, "switch")))
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
	return truncate(row, m.width)
}

func (m *model) noticeLine() string {
	switch {
	case m.status != "" && m.statusErr && m.statusCode != "":
		return wordsThenCode(m.status, m.statusCode, m.width)
	case m.status != "" && m.statusErr:
		return stError.Render(truncate(forms.SanitizeLine(m.status), m.width))
	case m.status != "":
		return stDim.Render(truncate(forms.SanitizeLine(m.status), m.width))
	case m.readOnly != "":
		return stError.Render(truncate(forms.SanitizeLine("Read-only database: nothing typed is saved or sent — "+m.readOnly+"."), m.width))
	case m.elsewhere > 0:
		return stateStyles["pending"].Render(truncate(forms.SanitizeLine(m.elsewhereLine()), m.width))
	case len(m.orphans) == 1:
		return stError.Render(truncate("1 interrupted run found — "+m.keys.Resend.Help().Key+" resumes it", m.width))
	case len(m.orphans) > 1:
		return stError.Render(truncate(fmt.Sprintf("%d interrupted runs found — %s resumes them", len(m.orphans), m.keys.Resend.Help().Key), m.width))
	}
	return ""
}
