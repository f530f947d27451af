// Package status is the screen's notice line — a message about one moment
// (what the user just did, what went wrong) — and its status line.
package status

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"followup/chat"
	"followup/forms"
	"followup/ui/style"
)

// Notice is the notice line's message. It belongs to one moment: it
// clears at the next key, when the chat's run or its questions change
// after it was set, when a question arrives in another chat (the inbox
// takes the line), and a notice that is no error after For.
// The first snapshot read after it marks the moment it speaks of ("Answer
// sent." speaks of the answer on its way; a new question ends it): one
// whose load began before the notice was set speaks of an older moment.
type Notice struct {
	text  string
	isErr bool
	code  string          // the error's code, drawn dim after the words
	at    string          // the moment it speaks of; "" until the next snapshot
	seq   int             // loads begun when it was set: later snapshots mark its moment
	open  map[string]bool // SayDone's: the questions open when it was set; a newcomer ends it
	gen   int             // counts the notices set: EndMsg ends the one it was set for
}

// Set shows s (an error when isErr); seq is the loads begun so far.
func (n *Notice) Set(s string, isErr bool, seq int) {
	*n = Notice{text: s, isErr: isErr, seq: seq, gen: n.gen + 1}
}

// SetErr says what went wrong, as a sentence after prefix (e.g. "Nothing
// was sent: "), with the error's code after it, dimmed, for a bug report
// — never the code in place of the words.
func (n *Notice) SetErr(prefix string, err error, seq int) {
	text, code := ErrWords(prefix, err)
	n.Set(text, true, seq)
	n.code = code
}

// SayDone says what the user just did to the questions open (ids) on
// screen ("Answer sent."): any question that was not open then ends it,
// even when the first snapshot read since already holds it — an MCP
// client asks again as soon as it reads the answer.
func (n *Notice) SayDone(s string, seq int, open []string) {
	n.Set(s, false, seq)
	n.open = map[string]bool{}
	for _, id := range open {
		n.open[id] = true
	}
}

// Text is the message shown, "" when none.
func (n *Notice) Text() string { return n.text }

// IsErr reports whether it says what went wrong.
func (n *Notice) IsErr() bool { return n.isErr }

// Gen counts the notices set so far.
func (n *Notice) Gen() int { return n.gen }

// Mark says the notice speaks of moment (a snapshot's).
func (n *Notice) Mark(moment string) { n.at = moment }

// Moves clears a notice whose moment has passed; call it with each
// snapshot: the seq of its load (0: unordered), what the chat is doing
// (its moment) and the questions open in it.
func (n *Notice) Moves(seq int, moment string, open []string) {
	if n.text == "" || seq != 0 && seq <= n.seq {
		return
	}
	for _, id := range open {
		if n.open != nil && !n.open[id] { // SayDone's newcomer
			n.Set("", false, n.seq)
			return
		}
	}
	switch {
	case n.at == "":
		n.at = moment
	case n.at != moment:
		n.Set("", false, n.seq)
	}
}

// For is how long a notice that is no error stays: long enough to read
// it, not so long that it stands for a moment gone by.
const For = 8 * time.Second

// EndMsg ends the notice of generation Gen, if it still shows.
type EndMsg struct{ Gen int }

// Ended returns the command that ends a notice just set after For: nil
// when it is an error or nothing.
func (n *Notice) Ended(was int) tea.Cmd {
	if n.gen == was || n.text == "" || n.isErr {
		return nil
	}
	gen := n.gen
	return tea.Tick(For, func(time.Time) tea.Msg { return EndMsg{gen} })
}

// View draws the notice width wide, "" when there is none.
func (n *Notice) View(width int) string {
	switch {
	case n.text == "":
		return ""
	case n.isErr:
		return Lines(n.text, n.code, style.Error, width)
	}
	return Lines(n.text, "", style.Dim, width)
}

// Bar is the status line, width wide: the provider, the task's state, the
// database and the help key; on a narrow screen the database goes first.
func Bar(width int, provider, run, dbPath string, help key.Binding) string {
	right := " " + style.Hints(style.Relabel(help, "help")) + " "
	left := fmt.Sprintf(" %s · %s · %s ", provider, run, dbPath)
	if lipgloss.Width(left)+lipgloss.Width(right) > width {
		left = fmt.Sprintf(" %s · %s ", provider, run)
		right = " " + style.Bold.Render(help.Keys()[0]) + " help "
	}
	pad := width - lipgloss.Width(left) - lipgloss.Width(right)
	if pad < 0 {
		left = style.Truncate(left, max(1, width-lipgloss.Width(right)))
		pad = max(0, width-lipgloss.Width(left)-lipgloss.Width(right))
	}
	return style.Status.Render(left + strings.Repeat(" ", pad) + right)
}

// MostLines is the most lines a notice takes: a longer one ends with an
// ellipsis.
const MostLines = 3

// Lines draws words in st, and code dim after them, width wide: words
// wider than that wrap onto up to MostLines lines, the code after them
// where it has room.
func Lines(words, code string, st lipgloss.Style, width int) string {
	words = forms.SanitizeLine(words)
	if code != "" {
		code = " " + code
	}
	if lipgloss.Width(words+code) <= width {
		return st.Render(words) + dim(code)
	}
	lines := strings.Split(ansi.Wrap(words, max(1, width), ""), "\n")
	if len(lines) > MostLines {
		lines = lines[:MostLines]
		lines[MostLines-1] = style.Truncate(lines[MostLines-1]+" …", width)
	}
	for i, l := range lines {
		lines[i] = st.Render(strings.TrimRight(l, " "))
	}
	switch last := len(lines) - 1; {
	case lipgloss.Width(lines[last]+code) <= width:
		lines[last] += dim(code)
	case len(lines) < MostLines:
		lines = append(lines, dim(code[1:])) // its own line
	}
	return strings.Join(lines, "\n")
}

func dim(s string) string {
	if s == "" {
		return ""
	}
	return style.Dim.Render(s)
}

// ErrWords is an error as a sentence after prefix (e.g. "Could not read
// the chats: "), and its code for a bug report ("" for INTERNAL).
func ErrWords(prefix string, err error) (words, code string) {
	e := chat.AsError(err)
	words = Sentence(e.Message)
	if prefix != "" {
		r, n := utf8.DecodeRuneInString(words)
		words = prefix + string(unicode.ToLower(r)) + words[n:]
	}
	if e.Code != chat.CodeInternal {
		code = string(e.Code)
	}
	return words, code
}

// ErrLine is an error on one line of width: the words, cut to leave room
// for the code drawn dim after them; too narrow for both, the words go
// first.
func ErrLine(prefix string, err error, width int) string {
	words, code := ErrWords(prefix, err)
	words = forms.SanitizeLine(words)
	if code == "" || width-len(code)-1 < 20 {
		return style.Error.Render(style.Truncate(words, width))
	}
	return style.Error.Render(style.Truncate(words, width-len(code)-1)) + style.Dim.Render(" "+code)
}

// Sentence makes a message a sentence: a capital first letter and a
// closing full stop.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.ContainsAny(s[len(s)-1:], ".!?…") {
		s += "."
	}
	return s
}
