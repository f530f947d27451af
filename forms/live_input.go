package forms

import (
	"strings"
	"unicode"

	"github.com/atotto/clipboard"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
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
	fieldFrame // a height cuts the head to leave the input its line
	keys       huh.InputKeyMap
	edit       textinput.KeyMap
	title      string
	about      string   // the description
	hint       string   // the kind's guidance or the problems, under it
	wrapped    wrapping // title, about and hint wrapped, kept while they and the width stay
	holder     string   // placeholder, drawn when empty
	limit      int      // runes
	cur        int      // cursor, in clusters
	offset     int      // first cluster drawn, when the text is wider than the field
}

const linePrompt = "> "

// newLineInput makes the line input of s, its cursor where the slot's
// last line input left it (a resize builds the page again), or after the
// text.
func newLineInput(s *slot, placeholder string, limit int) *lineInput {
	in := &lineInput{fieldFrame: fieldFrame{s: s}, edit: textinput.DefaultKeyMap,
		holder: placeholder, limit: limit, cur: len(graphemes(s.text))}
	if s.cursor != nil {
		in.cur = min(*s.cursor, in.cur)
	}
	return in
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

func (in *lineInput) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(pasteMsg); ok && p.in == in {
		in.insert(p.text)
		in.keepCursor()
		return in, nil
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok || !in.focused {
		return in, nil
	}
	defer in.keepCursor()
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

// keepCursor leaves the cursor's place in the slot for the field built
// after this one.
func (in *lineInput) keepCursor() {
	at := in.cur
	in.s.cursor = &at
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

func (in *lineInput) Focus() tea.Cmd {
	in.focused = true
	return nil
}

func (in *lineInput) Blur() tea.Cmd {
	in.focused = false
	in.s.confirmed()
	return nil
}

func (in *lineInput) KeyBinds() []key.Binding {
	return []key.Binding{in.keys.Prev, in.keys.Submit, in.keys.Next}
}

func (in *lineInput) WithTheme(t *huh.Theme) huh.Field { in.keepTheme(t); return in }

func (in *lineInput) WithKeyMap(k *huh.KeyMap) huh.Field {
	if k != nil {
		in.keys = k.Input
	}
	return in
}

func (in *lineInput) WithAccessible(bool) huh.Field { return in }
func (in *lineInput) WithWidth(w int) huh.Field     { in.width = w; return in }
func (in *lineInput) WithHeight(h int) huh.Field    { in.height = h; return in }

func (in *lineInput) WithPosition(p huh.FieldPosition) huh.Field {
	placeKeys(p, &in.keys.Prev, &in.keys.Next, &in.keys.Submit)
	return in
}

func (in *lineInput) GetValue() any { return in.s.text }
