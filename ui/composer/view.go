package composer

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"

	"followup/chat"
)

// The composer places its own view on its text's rows. The textarea
// scrolls its view only inside Update, and only as far as the rows its
// previous View drew: after a paste, text set from a draft, lines deleted
// or a resize it showed the wrong rows (the cursor out of view, blank
// rows under text hidden above). So the textarea always draws from its
// first row, tall enough never to scroll itself, and the composer cuts
// its window from that drawing: always holding the cursor, and never a
// blank row while text above is hidden.

// New is the composer, height rows tall; newline is the key that starts a
// new line.
func New(newline key.Binding, height int) Model {
	ta := textarea.New()
	ta.Placeholder = "Message the agent…"
	ta.ShowLineNumbers = false
	ta.SetPromptFunc(2, func(line int) string {
		if line == 0 {
			return "› "
		}
		return "  "
	})
	ta.CharLimit = chat.MaxMessage
	ta.KeyMap.InsertNewline = newline
	ta.Focus()
	ta.MaxHeight = 0 // the composer's height is the layout's, not a cap of the textarea's
	c := Model{Model: ta, unsent: map[string]string{}}
	c.SetHeight(height)
	return c
}

// Height is how many rows the composer shows.
func (c Model) Height() int { return c.height }

// SetHeight makes the composer h rows tall.
func (c *Model) SetHeight(h int) {
	c.height = max(1, h)
	c.place()
}

// SetWidth makes the composer w columns wide; its text wraps anew.
func (c *Model) SetWidth(w int) {
	if w == c.width {
		return
	}
	c.width = w
	c.Model.SetWidth(w)
	c.memo.ok = false // every line wraps anew
	c.place()
}

// place moves the window to hold the cursor, as little as it can, and
// pulls it down to the last row when rows below it would be blank.
func (c *Model) place() {
	h := max(1, c.height)
	cursor, total := c.rows()
	c.top = min(max(c.top, cursor-h+1), cursor)
	c.top = max(0, min(c.top, total-h))
	c.rowCount = total
	c.Model.SetHeight(c.top + h)
}

// roomFor makes the textarea tall enough that an edit inserting n runes
// leaves its cursor inside its drawing: it never scrolls itself, so it
// draws from the first row (each rune adds at most a row or two).
func (c *Model) roomFor(n int) {
	c.Model.SetHeight(c.rowCount + 2*n + 2 + c.top + c.height)
}

// rowsMemo is what rows counted last: while the text keeps its lines and
// the cursor its line, only that line can have changed (an edit is made
// at the cursor), so a key typed costs one line's wrapping, not the
// whole text's.
type rowsMemo struct {
	ok                     bool
	lines, row             int
	above, lineRows, total int // rows above the cursor's line, of it, of all
}

// rows is the cursor's row and the count of rows of the text as the
// textarea wraps it.
func (c *Model) rows() (cursor, total int) {
	li := c.LineInfo()
	if m := &c.memo; m.ok && m.lines == c.LineCount() && m.row == c.Line() {
		m.total += li.Height - m.lineRows
		m.lineRows = li.Height
		return m.above + li.RowOffset, m.total
	}
	above, total := c.walk()
	c.memo = rowsMemo{ok: true, lines: c.LineCount(), row: c.Line(), above: above, lineRows: li.Height, total: total}
	return above + li.RowOffset, total
}

// walk counts the rows above the cursor's line and of the whole text by
// walking copies of the cursor over the lines (a copy's cursor moves
// alone; the text is only read).
func (c Model) walk() (above, total int) {
	up := c.Model
	for up.Line() > 0 {
		at := up.Line()
		up.CursorStart()
		up.CursorUp()
		if up.Line() >= at {
			break
		}
		above += up.LineInfo().Height
	}
	down := c.Model
	total = above + down.LineInfo().Height
	for down.Line() < down.LineCount()-1 {
		at := down.Line()
		down.CursorEnd()
		down.CursorDown()
		if down.Line() <= at {
			break
		}
		total += down.LineInfo().Height
	}
	return above, total
}

// window is the composer's rows of the textarea's drawing.
func (c Model) window(drawn string) string {
	lines := strings.Split(drawn, "\n")
	lines = lines[min(c.top, len(lines)):]
	return strings.Join(lines[:min(c.height, len(lines))], "\n")
}
