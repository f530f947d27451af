package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/textarea"
)

// The composer places its own view on its text's rows. The textarea
// scrolls its view only inside Update, and only as far as the rows its
// previous View drew: after a paste, text set from a draft, lines deleted
// or a resize it showed the wrong rows (the cursor out of view, blank
// rows under text hidden above). So the textarea always draws from its
// first row, tall enough never to scroll itself, and the composer cuts
// its window from that drawing: always holding the cursor, and never a
// blank row while text above is hidden.

// newComposer is the composer around ta, height rows tall.
func newComposer(ta textarea.Model, height int) composerArea {
	ta.MaxHeight = 0 // the composer's height is the layout's, not a cap of the textarea's
	c := composerArea{Model: ta}
	c.SetHeight(height)
	return c
}

// Height is how many rows the composer shows.
func (c composerArea) Height() int { return c.height }

// SetHeight makes the composer h rows tall.
func (c *composerArea) SetHeight(h int) {
	c.height = max(1, h)
	c.place()
}

// SetWidth makes the composer w columns wide; its text wraps anew.
func (c *composerArea) SetWidth(w int) {
	if w == c.width {
		return
	}
	c.width = w
	c.Model.SetWidth(w)
	c.place()
}

// place moves the window to hold the cursor, as little as it can, and
// pulls it down to the last row when rows below it would be blank.
func (c *composerArea) place() {
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
func (c *composerArea) roomFor(n int) {
	c.Model.SetHeight(c.rowCount + 2*n + 2 + c.top + c.height)
}

// rows is the cursor's row and the count of rows of the text as the
// textarea wraps it, counted by walking copies of its cursor over its
// lines (a copy's cursor moves alone; the text is only read).
func (c composerArea) rows() (cursor, total int) {
	up := c.Model
	cursor = up.LineInfo().RowOffset
	for up.Line() > 0 {
		at := up.Line()
		up.CursorStart()
		up.CursorUp()
		if up.Line() >= at {
			break
		}
		cursor += up.LineInfo().Height
	}
	down := c.Model
	total = cursor - down.LineInfo().RowOffset + down.LineInfo().Height
	for down.Line() < down.LineCount()-1 {
		at := down.Line()
		down.CursorEnd()
		down.CursorDown()
		if down.Line() <= at {
			break
		}
		total += down.LineInfo().Height
	}
	return cursor, total
}

// window is the composer's rows of the textarea's drawing.
func (c composerArea) window(drawn string) string {
	lines := strings.Split(drawn, "\n")
	lines = lines[min(c.top, len(lines)):]
	return strings.Join(lines[:min(c.height, len(lines))], "\n")
}
