package forms

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// How a list is drawn: its title, description and hint, then a window of
// its options around the cursor, with a row saying how many are hidden
// above and below it. A form too short for all of that (huh gives the
// field a height) keeps the options first: the title's first line (which
// question this is), then keepRows rows of options (the cursor, its
// neighbours, the "more" rows), then the rest of the title, the hint and
// the description, as far as they fit.

// keepRows is the fewest option rows a list gives up its other lines for:
// the cursor, one option either side, and a "more" row at each end.
const keepRows = 5

// minRows is the fewest rows with room for "more" rows of their own;
// under it the counts go on the first option's row.
const minRows = 3

// listLayout is what a list draws: the lines of its head (each part cut
// to what fits) and how many rows its options get.
type listLayout struct {
	title, desc, hint []string
	rows              int
}

// inner is the width the field's text may take (0: not bounded).
func (l *list) inner(st *huh.FieldStyles) int {
	if l.width <= 0 {
		return 0
	}
	return max(l.width-st.Base.GetHorizontalFrameSize(), 1)
}

// naturalRows is the options' rows with room to spare: a short list
// whole, a long one in a window of listWindow (kept while filtering, so
// the form does not jump).
func (l *list) naturalRows() int {
	if len(l.opts) > longList {
		return listWindow
	}
	return max(len(l.opts), 1)
}

func (l *list) rows() int {
	st := l.styles()
	return l.layout(st, l.inner(st)).rows
}

func (l *list) layout(st *huh.FieldStyles, inner int) listLayout {
	var title string
	switch {
	case l.filterOn:
		title = "/" + l.filter + "▏"
	case l.filter != "":
		title = "/" + l.filter
	default:
		title = l.title
	}
	lay := l.head.wrap(headKey{title, l.s.about(), l.s.hint(), inner})
	natural := l.naturalRows()
	room := l.height - st.Base.GetVerticalFrameSize()
	if l.height <= 0 {
		lay.rows = natural
		return lay
	}
	left := fitHead(room, min(natural, keepRows), inner, &lay.title, &lay.hint, &lay.desc)
	lay.rows = max(min(natural, left), 1)
	return lay
}

// listHead keeps a list's head wrapped: the cursor moves far more often
// than the title, description or hint change.
type listHead struct {
	key  headKey
	lay  listLayout
	done bool
}

type headKey struct {
	title, desc, hint string
	width             int
}

// wrap is the head's lines at k's width (the layout's rows left 0). The
// lines are shared: they are cut into new slices, never changed.
func (h *listHead) wrap(k headKey) listLayout {
	if h.done && h.key == k {
		return h.lay
	}
	*h = listHead{key: k, lay: listLayout{title: wrapLines(k.title, k.width), desc: wrapLines(k.desc, k.width),
		hint: wrapLines(k.hint, k.width)}, done: true}
	return h.lay
}

// cutLines keeps the first n lines, the last one kept ending in "…" when
// some are left out (cut to make room for it within width, if bounded).
func cutLines(lines []string, n, width int) []string {
	if len(lines) <= n {
		return lines
	}
	if n <= 0 {
		return nil
	}
	out := append([]string(nil), lines[:n]...)
	if width > 0 {
		out[n-1] = ansi.Truncate(out[n-1], max(width-1, 1), "")
	}
	out[n-1] += "…"
	return out
}

// span is the window of n options drawn in rows rows around the cursor:
// options [first, last). Where some are hidden a row says how many, so
// the window holds rows-1 options at an end of the list and rows-2 in its
// middle; a row would never say "1 more" (the option fits in its place).
// In tightRows rows the middle of the list is drawn as the cursor, its
// neighbours and one row counting both ends (squeezed). Under minRows
// rows there is no room for such rows: the counts go on the first
// option's row.
func span(n, cursor, rows int) (first, last int) {
	if n <= rows {
		return 0, n
	}
	if rows < minRows {
		first = max(0, min(cursor-(rows-1)/2, n-rows))
		return first, first + rows
	}
	if rows == tightRows && cursor > 1 && cursor < n-2 {
		return cursor - 1, cursor + 2
	}
	inner := rows - 2
	first = cursor - (inner-1)/2
	switch {
	case first <= 1:
		return 0, rows - 1
	case first+inner >= n-1:
		return n - (rows - 1), n
	}
	return first, first + inner
}

// tightRows is the height at which a row each for the hidden options
// above and below would hide a neighbour of the cursor.
const tightRows = 4

// squeezed reports a window drawn with one row counting both ends.
func squeezed(n, rows, first, last int) bool {
	return rows >= minRows && first > 0 && last < n && last-first+2 > rows
}

func (l *list) View() string {
	st := l.styles()
	inner := l.inner(st)
	lay := l.layout(st, inner)
	var out []string
	if len(lay.title) > 0 {
		out = append(out, st.Title.Render(strings.Join(lay.title, "\n")))
	}
	if len(lay.desc) > 0 {
		out = append(out, st.Description.Render(strings.Join(lay.desc, "\n")))
	}
	if len(lay.hint) > 0 {
		out = append(out, st.Description.Render(strings.Join(lay.hint, "\n")))
	}
	out = append(out, l.optionRows(st, inner, lay.rows)...)
	return st.Base.Width(l.width).Render(strings.Join(out, "\n"))
}

// optionRows draws the window of options in exactly rows rows.
func (l *list) optionRows(st *huh.FieldStyles, inner, rows int) []string {
	selector := st.SelectSelector.String()
	if l.multi {
		selector = st.MultiSelectSelector.String()
	}
	pad := strings.Repeat(" ", lipgloss.Width(selector))
	n := len(l.shown)
	var out []string
	if n == 0 {
		out = append(out, pad+st.TextInput.Placeholder.Render("No matches"))
	}
	first, last := span(n, l.cursor, rows)
	// a multi-select's choices out of sight are counted: the user sees
	// what will be sent without scrolling to it
	more := func(arrow string, from, to int) string {
		text := fmt.Sprintf("%s %d more", arrow, to-from)
		if picked := l.pickedAmong(from, to); l.multi && picked > 0 {
			text += fmt.Sprintf(" · %d selected", picked)
		}
		return pad + st.Description.Render(text)
	}
	marks := rows >= minRows
	both := squeezed(n, rows, first, last)
	if marks && first > 0 && !both {
		out = append(out, more("↑", 0, first))
	}
	for i := first; i < last; i++ {
		suffix := ""
		if !marks && i == first {
			suffix = joinNonEmpty(" ", countMark("↑", first), countMark("↓", n-last))
		}
		out = append(out, l.optionRow(st, i, selector, pad, inner, suffix))
	}
	switch {
	case both:
		out = append(out, l.moreBoth(st, pad, first, last))
	case marks && last < n:
		out = append(out, more("↓", last, n))
	}
	for len(out) < rows {
		out = append(out, "")
	}
	return out
}

// moreBoth is the one row counting the options hidden above and below.
func (l *list) moreBoth(st *huh.FieldStyles, pad string, first, last int) string {
	n := len(l.shown)
	text := fmt.Sprintf("↑ %d · ↓ %d more", first, n-last)
	if picked := l.pickedAmong(0, first) + l.pickedAmong(last, n); l.multi && picked > 0 {
		text += fmt.Sprintf(" · %d selected", picked)
	}
	return pad + st.Description.Render(text)
}

// pickedAmong counts the picked options among shown[from:to].
func (l *list) pickedAmong(from, to int) int {
	n := 0
	for _, i := range l.shown[from:to] {
		if l.picked(l.opts[i].Value) {
			n++
		}
	}
	return n
}

func countMark(arrow string, k int) string {
	if k == 0 {
		return ""
	}
	return fmt.Sprintf("%s%d", arrow, k)
}

// optionRow draws option i of the shown ones: the cursor's selector, a
// multi-select's check, the label cut to fit, and suffix (dim) after it.
func (l *list) optionRow(st *huh.FieldStyles, i int, selector, pad string, inner int, suffix string) string {
	o := l.opts[l.shown[i]]
	lead := pad
	if i == l.cursor {
		lead = selector
	}
	style := st.UnselectedOption
	switch {
	case l.multi && l.picked(o.Value):
		lead += st.SelectedPrefix.String()
		style = st.SelectedOption
	case l.multi:
		lead += st.UnselectedPrefix.String()
	case i == l.cursor:
		style = st.SelectedOption
	}
	room := inner - lipgloss.Width(lead)
	if suffix != "" {
		room -= lipgloss.Width(suffix) + 2
		suffix = "  " + st.Description.Render(suffix)
	}
	return lead + style.Render(truncate(o.Key, room)) + suffix
}

// truncate fits s in n cells, measured as lipgloss measures them.
func truncate(s string, n int) string {
	if n < 1 {
		return s
	}
	return ansi.Truncate(s, n, "…")
}
