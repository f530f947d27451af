// Package composer is the message composer: bubbles' textarea kept to
// grapheme clusters, placing its own view, with each chat's unsent text
// as the screen knows it.
package composer

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"followup/agent/mcp"
	"followup/forms"
)

// Model is the composer: bubbles' textarea, which edits and draws
// runes, kept to grapheme clusters drawn the way the terminal draws them.
// The textarea holds the text as drawn (forms.DrawnText: a skin tone or
// an emoji presentation selector left out, since tmux 3.3a draws 👋🏽
// four cells wide where lipgloss measures two), while Value is the text
// as typed, which is what is sent. Backspace and delete take a whole
// cluster (👨‍👩‍👧, not only 👧), and the cursor never stands inside one.
type Model struct {
	textarea.Model
	text forms.DrawnText
	// The rows in view: height of them from top (composer_view.go).
	top, height int
	rowCount    int // the text's rows at the last placing
	width       int // as last set, prompt included
	memo        rowsMemo

	// unsent is each chat's draft as the screen knows it: what it last
	// asked to be saved, or what a snapshot brought when it had none.
	unsent map[string]string
	// attached are the MCP resources attached to the next message.
	attached []mcp.Resource
	seen     string // the text when last looked at
	seq      int    // counts the looks: an autosave scheduled before the last has nothing to do

	cmds commands // offered after a / (commands.go)
}

// Changed reports whether the text changed since it was last looked at,
// and looks: seq names this look (an autosave on its way).
func (c *Model) Changed() (seq int, changed bool) {
	if v := c.Value(); v != c.seen {
		c.Looked()
		return c.seq, true
	}
	return c.seq, false
}

// Looked notes the text as looked at now: nothing of it is left unsaved.
func (c *Model) Looked() { c.seen = c.Value(); c.seq++ }

// Seq names the last look.
func (c *Model) Seq() int { return c.seq }

// Kept is chatID's draft as the screen knows it.
func (c *Model) Kept(chatID string) (text string, known bool) {
	text, known = c.unsent[chatID]
	return text, known
}

// Keep notes text as chatID's draft.
func (c *Model) Keep(chatID, text string) {
	c.unsent[chatID] = text
}

// Forget drops what the screen knows of chatID's draft.
func (c *Model) Forget(chatID string) { delete(c.unsent, chatID) }

// Attach attaches r to the next message, once.
func (c *Model) Attach(r mcp.Resource) {
	if !slices.Contains(c.attached, r) {
		c.attached = append(c.attached, r)
	}
}

// Attached are the resources attached to the next message.
func (c Model) Attached() []mcp.Resource { return c.attached }

// TakeAttached takes the attachments off, as their message is sent.
func (c *Model) TakeAttached() []mcp.Resource {
	a := c.attached
	c.attached = nil
	return a
}

// Rows is how many rows the text takes at the composer's width.
func (c Model) Rows() int { return c.rowCount }

// Value is the composer's text as typed.
func (c Model) Value() string { return c.text.Text() }

// drawn is the composer's text as the textarea holds and draws it.
func (c Model) drawn() string { return c.Model.Value() }

// SetValue puts text in the composer, the cursor at its end.
func (c *Model) SetValue(text string) {
	c.text = forms.SplitDrawn(text)
	// bubbles' textarea makes room for 10,000 lines on every SetValue (240
	// kB): an empty composer that stays empty, as on most chat switches,
	// is left as it is.
	if drawn := c.text.Drawn(); drawn != "" || c.drawn() != "" {
		c.Model.SetValue(drawn)
	}
	c.memo.ok = false
	c.agree()
	c.place()
}

// Reset empties the composer.
func (c *Model) Reset() {
	c.Model.Reset()
	c.text = forms.DrawnText{}
	c.top, c.memo.ok = 0, false
	c.place()
}

// Update gives the textarea msg: typed text goes in as drawn, and the
// edit is mapped back to the text as typed.
func (c Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	before := c.text
	if before.Drawn() != c.drawn() {
		before = forms.SplitDrawn(c.drawn())
	}
	k, isKey := msg.(tea.KeyMsg)
	if isKey && c.Focused() && c.Value() == "" && len(c.attached) > 0 && key.Matches(k, c.KeyMap.DeleteCharacterBackward) {
		c.attached = c.attached[:len(c.attached)-1] // backspace on no text: the last attachment goes
		return c, nil
	}
	typed := ""
	if isKey && c.Focused() && (k.Type == tea.KeyRunes || k.Type == tea.KeySpace) {
		typed = string(k.Runes)
		k.Runes = []rune(forms.DrawTyped(typed))
		msg = k
	}
	var cmd tea.Cmd
	c.roomFor(len(k.Runes))
	c.Model, cmd = c.Model.Update(msg)
	cmds := []tea.Cmd{cmd}
	if !isKey || !c.Focused() {
		c.settle(before, typed)
		c.place()
		return c, cmd
	}
	km := c.KeyMap
	if key.Matches(k, km.DeleteCharacterBackward, km.DeleteCharacterForward) {
		back, ahead := before.Rest(c.drawn())
		for range back {
			c.Model, cmd = c.Model.Update(tea.KeyMsg{Type: tea.KeyBackspace})
			cmds = append(cmds, cmd)
		}
		for range ahead {
			c.Model, cmd = c.Model.Update(tea.KeyMsg{Type: tea.KeyDelete})
			cmds = append(cmds, cmd)
		}
	}
	c.settle(before, typed)
	c.snap(key.Matches(k, km.CharacterBackward, km.WordBackward, km.DeleteCharacterBackward, km.LinePrevious))
	c.place()
	return c, tea.Batch(cmds...)
}

// settle maps what the textarea now holds back to the text as typed; text
// it took that it cannot draw as it is (a paste from the clipboard) is
// drawn anew.
func (c *Model) settle(before forms.DrawnText, typed string) {
	v := c.drawn()
	if v == before.Drawn() {
		return
	}
	c.text = forms.SplitDrawn(before.Edit(v, typed))
	if c.text.Drawn() != v {
		c.redraw()
	}
}

// redraw puts the text as drawn in the textarea, the cursor where it was.
func (c *Model) redraw() {
	row, col := c.Line(), c.column()
	lines := strings.Split(c.drawn(), "\n")
	head := strings.Join(append(lines[:row:row], string([]rune(lines[row])[:col])), "\n")
	head = forms.SplitDrawn(head).Drawn()
	c.Model.SetValue(c.text.Drawn())
	c.memo.ok = false
	c.agree()
	for c.Line() > strings.Count(head, "\n") {
		c.CursorUp()
	}
	c.SetCursor(utf8.RuneCountInString(head[strings.LastIndex(head, "\n")+1:]))
}

// agree makes the text as typed what the textarea took when it changed
// it on the way in (a tab becomes spaces, a line past its limit goes).
func (c *Model) agree() {
	if c.text.Drawn() != c.drawn() {
		c.text = forms.SplitDrawn(c.drawn())
	}
}

// snap moves a cursor standing inside a cluster to its start (back) or
// its end.
func (c *Model) snap(back bool) {
	lines := strings.Split(c.drawn(), "\n")
	row, col := c.Line(), c.column()
	if row >= len(lines) {
		return
	}
	if to := forms.Boundary(lines[row], col, back); to != col {
		c.SetCursor(to)
	}
}

// column is the cursor's rune offset in its line.
func (c Model) column() int {
	li := c.LineInfo()
	return li.StartColumn + li.ColumnOffset
}

// cursorMark stands for the cursor in the textarea's drawing until View
// puts the bar there: an escape sequence no terminal is sent, so it has
// no width and survives the textarea's wrapping and padding.
const cursorMark = "\x1b_followup-cursor\x1b\\"

// View draws the composer. Without colour (NO_COLOR) the textarea's
// cursor, reverse video, draws nothing; a bar stands before the cell it
// is on instead, as in the form's fields, steady rather than blinking,
// taking the room of one padding space.
func (c Model) View() string { return c.window(c.draw()) }

// draw is the textarea's drawing, from the text's first row.
func (c Model) draw() string {
	if !forms.Colourless() || !c.Focused() {
		return c.Model.View()
	}
	m := c.Model
	m.Cursor.Blink = false
	m.Cursor.Style = m.Cursor.Style.Transform(func(s string) string { return cursorMark + s })
	lines := strings.Split(m.View(), "\n")
	for i, l := range lines {
		at := strings.Index(l, cursorMark)
		if at < 0 {
			continue
		}
		l = l[:at] + forms.AsciiCursor + strings.TrimPrefix(l[at+len(cursorMark):], " ")
		if !strings.HasPrefix(lines[i][at+len(cursorMark):], " ") {
			l = strings.TrimSuffix(l, " ") // the bar is a cell of its own
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}
