package forms

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/atotto/clipboard"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
	"github.com/rivo/uniseg"
)

// lineInput is the one-line text field (text, number, integer). It edits
// the slot's text a grapheme cluster at a time — backspace deletes 👨‍👩‍👧
// whole, the cursor never stands inside a cluster — and draws each cluster
// through the sanitiser, so what the terminal is sent has the width lipgloss
// measured. huh's Input edits and draws runes: a cursor inside 👋🏽 splits
// it into two glyphs the terminal draws wider than the frame allows.
//
// The stored text is never changed by drawing: a prefill holding a skin
// tone keeps it, and is drawn without it.
type lineInput struct {
	s       *slot
	focused bool
	width   int
	theme   *huh.Theme
	keys    huh.InputKeyMap
	edit    textinput.KeyMap
	title   string
	desc    string
	wrapped wrapping // title and desc wrapped, kept while they and the width stay
	hint    string   // placeholder, drawn when empty
	limit   int      // runes
	cur     int      // cursor, in clusters
	offset  int      // first cluster drawn, when the text is wider than the field
}

const linePrompt = "> "

func newLineInput(s *slot, placeholder string, limit int) *lineInput {
	return &lineInput{s: s, edit: textinput.DefaultKeyMap,
		hint: placeholder, limit: limit, cur: len(graphemes(s.text))}
}

// graphemes splits s into grapheme clusters.
func graphemes(s string) []string {
	var out []string
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		out = append(out, g.Str())
	}
	return out
}

// pasteMsg carries clipboard text pasted with ctrl+v.
type pasteMsg struct {
	in   *lineInput
	text string
}

func (in *lineInput) Init() tea.Cmd { return nil }

func (in *lineInput) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(pasteMsg); ok && p.in == in {
		in.insert(p.text)
		return in, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok || !in.focused {
		return in, nil
	}
	cl := graphemes(in.s.text)
	in.cur = min(in.cur, len(cl))
	switch {
	case key.Matches(k, in.keys.Prev):
		in.s.confirmed()
		return in, huh.PrevField
	case key.Matches(k, in.keys.Next, in.keys.Submit):
		in.s.confirmed()
		return in, huh.NextField
	case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
		in.insert(string(k.Runes))
	case key.Matches(k, in.edit.Paste):
		return in, func() tea.Msg {
			text, err := clipboard.ReadAll()
			if err != nil {
				return nil
			}
			return pasteMsg{in, text}
		}
	case key.Matches(k, in.edit.CharacterBackward):
		in.cur = max(in.cur-1, 0)
	case key.Matches(k, in.edit.CharacterForward):
		in.cur = min(in.cur+1, len(cl))
	case key.Matches(k, in.edit.WordBackward):
		in.cur = wordStart(cl, in.cur)
	case key.Matches(k, in.edit.WordForward):
		in.cur = wordEnd(cl, in.cur)
	case key.Matches(k, in.edit.LineStart):
		in.cur = 0
	case key.Matches(k, in.edit.LineEnd):
		in.cur = len(cl)
	case key.Matches(k, in.edit.DeleteCharacterBackward):
		if in.cur > 0 {
			in.set(cl[:in.cur-1], cl[in.cur:], in.cur-1)
		}
	case key.Matches(k, in.edit.DeleteCharacterForward):
		if in.cur < len(cl) {
			in.set(cl[:in.cur], cl[in.cur+1:], in.cur)
		}
	case key.Matches(k, in.edit.DeleteWordBackward):
		at := wordStart(cl, in.cur)
		in.set(cl[:at], cl[in.cur:], at)
	case key.Matches(k, in.edit.DeleteWordForward):
		in.set(cl[:in.cur], cl[wordEnd(cl, in.cur):], in.cur)
	case key.Matches(k, in.edit.DeleteBeforeCursor):
		in.set(nil, cl[in.cur:], 0)
	case key.Matches(k, in.edit.DeleteAfterCursor):
		in.set(cl[:in.cur], nil, in.cur)
	}
	return in, nil
}

// insert types text at the cursor: one line, no controls (as bubbles'
// input does), within the field's limit. Bidi and other invisible
// controls are kept as typed: they are drawn as U+FFFD, and the field's
// check says why the value cannot be sent.
func (in *lineInput) insert(text string) {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	add := b.String()
	if room := in.limit - len([]rune(in.s.text)); in.limit > 0 && len([]rune(add)) > room {
		add = string([]rune(add)[:max(room, 0)])
	}
	if add == "" {
		return
	}
	cl := graphemes(in.s.text)
	in.cur = min(in.cur, len(cl))
	head := strings.Join(cl[:in.cur], "")
	text = head + add + strings.Join(cl[in.cur:], "")
	// A combining mark typed after a cluster joins it: count clusters anew.
	in.cur = len(graphemes(head + add))
	textAccess{in.s}.Set(text)
}

// set writes the text head+tail with the cursor at cur.
func (in *lineInput) set(head, tail []string, cur int) {
	in.cur = cur
	textAccess{in.s}.Set(strings.Join(head, "") + strings.Join(tail, ""))
}

// wordStart is where the word before cluster i starts.
func wordStart(cl []string, i int) int {
	for i > 0 && isSpaceCluster(cl[i-1]) {
		i--
	}
	for i > 0 && !isSpaceCluster(cl[i-1]) {
		i--
	}
	return i
}

// wordEnd is where the word after cluster i ends.
func wordEnd(cl []string, i int) int {
	for i < len(cl) && isSpaceCluster(cl[i]) {
		i++
	}
	for i < len(cl) && !isSpaceCluster(cl[i]) {
		i++
	}
	return i
}

func isSpaceCluster(c string) bool { return strings.TrimSpace(c) == "" }

func (in *lineInput) styles() *huh.FieldStyles {
	if in.focused {
		return &in.theme.Focused
	}
	return &in.theme.Blurred
}

func (in *lineInput) View() string {
	st := in.styles()
	maxWidth := in.width - st.Base.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(in.wrapped.head(st, in.title, in.desc, maxWidth, in.focused, in.s.live.look))
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
	if len(cl) == 0 && in.hint != "" {
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
	if in.drawsCursor() && colourless() && cur < len(cl) {
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
	first, rest, _, _ := uniseg.FirstGraphemeClusterInString(in.hint, 0)
	v := style.Render(first)
	bar := 0
	switch {
	case in.drawsCursor() && colourless():
		v, bar = asciiCursor+v, 1
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
	case colourless() && c == " ":
		return asciiCursor
	case colourless():
		return asciiCursor + st.TextInput.Text.Inline(true).Render(c)
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
	title, desc string
	width       int
	focused     bool
	look        uint64
}

// head is the title and description lines, each ending in a newline.
func (w *wrapping) head(st *huh.FieldStyles, title, desc string, width int, focused bool, look uint64) string {
	k := wrapKey{title, desc, width, focused, look}
	if w.done && w.key == k {
		return w.drawn
	}
	var b strings.Builder
	if title != "" {
		b.WriteString(st.Title.Render(wrapCells(title, width)) + "\n")
	}
	if desc != "" {
		b.WriteString(st.Description.Render(wrapCells(desc, width)) + "\n")
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

func (in *lineInput) Focus() tea.Cmd {
	in.focused = true
	return nil
}

func (in *lineInput) Blur() tea.Cmd {
	in.focused = false
	in.s.confirmed()
	return nil
}

func (in *lineInput) Error() error { return nil }
func (in *lineInput) Skip() bool   { return false }
func (in *lineInput) Zoom() bool   { return false }

func (in *lineInput) KeyBinds() []key.Binding {
	return []key.Binding{in.keys.Prev, in.keys.Submit, in.keys.Next}
}

func (in *lineInput) WithTheme(t *huh.Theme) huh.Field {
	if in.theme == nil {
		in.theme = t
	}
	return in
}

func (in *lineInput) WithKeyMap(k *huh.KeyMap) huh.Field {
	if k != nil {
		in.keys = k.Input
	}
	return in
}

func (in *lineInput) WithAccessible(bool) huh.Field { return in }
func (in *lineInput) WithWidth(w int) huh.Field     { in.width = w; return in }
func (in *lineInput) WithHeight(int) huh.Field      { return in }

func (in *lineInput) WithPosition(p huh.FieldPosition) huh.Field {
	in.keys.Prev.SetEnabled(!p.IsFirst())
	in.keys.Next.SetEnabled(!p.IsLast())
	in.keys.Submit.SetEnabled(p.IsLast())
	return in
}

func (in *lineInput) GetKey() string { return in.s.f.Name }
func (in *lineInput) GetValue() any  { return in.s.text }
func (in *lineInput) Run() error     { return huh.Run(in) }

// RunAccessible asks for the value on a plain line.
func (in *lineInput) RunAccessible(w io.Writer, r io.Reader) error {
	_, _ = fmt.Fprintf(w, "%s ", in.title)
	var line string
	if _, err := fmt.Fscanln(r, &line); err != nil && line == "" {
		return err
	}
	textAccess{in.s}.Set(line)
	in.s.confirmed()
	return nil
}
