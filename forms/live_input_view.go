package forms

import (
	"slices"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
	"github.com/rivo/uniseg"
)

// How a lineInput is drawn: its title and description (kept while they
// stay), the prompt, the visible window of its text, and the cursor over a
// whole cluster.

func (in *lineInput) View() string {
	st := in.styles()
	maxWidth := in.width - st.Base.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(in.wrapped.head(st, wrapKey{title: in.title, about: in.about, hint: in.hint, width: maxWidth,
		room: fieldRoom(st, in.height), keep: 1, focused: in.focused, look: in.s.live.look}))
	b.WriteString(in.line(st, in.fieldWidth(st)))
	return st.Base.Width(in.width).Render(b.String())
}

// fieldWidth is the cells the text may take, as huh's Input sizes it.
func (in *lineInput) fieldWidth(st *huh.FieldStyles) int {
	w := in.width - st.Base.GetHorizontalFrameSize() - lipgloss.Width(linePrompt) - 1
	if in.width <= 0 {
		return 0
	}
	return max(min(w, max(in.limit, 1)), 1)
}

// line draws the prompt and the visible part of the text, the cursor on
// the cluster under it (or after the text).
func (in *lineInput) line(st *huh.FieldStyles, width int) string {
	prompt := st.TextInput.Prompt.Render(linePrompt)
	text := st.TextInput.Text.Inline(true)
	cl := graphemes(in.s.text)
	if len(cl) == 0 && in.holder != "" {
		return prompt + in.placeholder(st, width)
	}
	shown := make([]string, len(cl))
	widths := make([]int, len(cl))
	for i, c := range cl {
		shown[i] = SanitizeLine(c)
		widths[i] = ansi.StringWidth(shown[i])
	}
	cur := min(in.cur, len(cl))
	bar := 0 // a bar cursor inside the text takes a cell of its own
	if in.drawsCursor() && Colourless() && cur < len(cl) {
		bar = 1
	}
	in.scroll(widths, cur, width-bar)
	var b strings.Builder
	used := bar
	end := in.offset
	for end < len(cl) && (width <= 0 || used+widths[end] <= width) {
		used += widths[end]
		end++
	}
	b.WriteString(text.Render(strings.Join(shown[in.offset:min(cur, end)], "")))
	switch {
	case cur < end:
		b.WriteString(in.cursor(st, shown[cur]))
		b.WriteString(text.Render(strings.Join(shown[cur+1:end], "")))
	default:
		b.WriteString(in.cursor(st, " "))
		used++
	}
	if width > 0 && used < width+1 {
		b.WriteString(text.Render(strings.Repeat(" ", width+1-used)))
	}
	return prompt + b.String()
}

// scroll moves the drawn window so the cursor (and the cell after the text
// it may stand on) fits in width.
func (in *lineInput) scroll(widths []int, cur, width int) {
	if width <= 0 {
		in.offset = 0
		return
	}
	total := 0
	for _, w := range widths {
		total += w
	}
	if total+1 <= width+1 {
		in.offset = 0
		return
	}
	in.offset = min(in.offset, cur)
	span := func() int { // cells from offset through the cursor's cell
		n := 1
		if cur < len(widths) {
			n = widths[cur]
		}
		for i := in.offset; i < cur; i++ {
			n += widths[i]
		}
		return n
	}
	for in.offset < cur && span() > width {
		in.offset++
	}
}

func (in *lineInput) placeholder(st *huh.FieldStyles, width int) string {
	style := st.TextInput.Placeholder.Inline(true)
	first, rest, _, _ := uniseg.FirstGraphemeClusterInString(in.holder, 0)
	v := style.Render(first)
	bar := 0
	switch {
	case in.drawsCursor() && Colourless():
		v, bar = AsciiCursor+v, 1
	case in.drawsCursor():
		v = in.cursorStyle(st).Render(first)
	}
	if width <= 0 {
		return v + style.Render(rest)
	}
	room := width - lipgloss.Width(linePrompt) - ansi.StringWidth(first) - bar
	rest = ansi.Truncate(rest, room, "…")
	return v + style.Render(rest) + strings.Repeat(" ", max(0, room-ansi.StringWidth(rest)))
}

// drawsCursor: the field has the form's focus and the form the screen's.
func (in *lineInput) drawsCursor() bool { return in.focused && !in.s.live.unfocused }

// cursor draws the cluster c under the cursor: reversed, or after a bar
// where no attribute shows (a bar alone after the text).
func (in *lineInput) cursor(st *huh.FieldStyles, c string) string {
	switch {
	case !in.drawsCursor():
		return st.TextInput.CursorText.Inline(true).Render(c)
	case Colourless() && c == " ":
		return AsciiCursor
	case Colourless():
		return AsciiCursor + st.TextInput.Text.Inline(true).Render(c)
	}
	return in.cursorStyle(st).Render(c)
}

func (in *lineInput) cursorStyle(st *huh.FieldStyles) lipgloss.Style {
	return st.TextInput.Cursor.Inline(true).Reverse(true)
}

// wrapping keeps a field's title and description drawn: they change far
// less often than the field is (every key typed into it).
type wrapping struct {
	key   wrapKey
	drawn string
	done  bool
}

// wrapKey is what the drawn title and description depend on.
type wrapKey struct {
	title, about, hint string
	width              int
	room, keep         int // the field's rows (0: unbounded) and its input's (fitHead)
	focused            bool
	look               uint64
}

// head is the title and description lines, each ending in a newline, cut
// to leave the input its rows when the field has a height.
func (w *wrapping) head(st *huh.FieldStyles, k wrapKey) string {
	if w.done && w.key == k {
		return w.drawn
	}
	title, about, hint := wrapLines(k.title, k.width), wrapLines(k.about, k.width), wrapLines(k.hint, k.width)
	if k.room > 0 {
		fitHead(k.room, k.keep, k.width, &title, &hint, &about)
	}
	desc := slices.Concat(about, hint)
	var b strings.Builder
	if len(title) > 0 {
		b.WriteString(st.Title.Render(strings.Join(title, "\n")) + "\n")
	}
	if len(desc) > 0 {
		b.WriteString(st.Description.Render(strings.Join(desc, "\n")) + "\n")
	}
	*w = wrapping{key: k, drawn: b.String(), done: true}
	return w.drawn
}

// wrapCells wraps s at width cells, as huh wraps titles.
func wrapCells(s string, width int) string {
	if width <= 0 {
		return s
	}
	return cellbuf.Wrap(s, width, ",.-; ")
}
