package forms

import (
	"strings"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// A textarea is huh's Text, which edits and draws runes. Two things keep
// it honest:
//
//   - it holds the text as drawn (each grapheme cluster through the
//     sanitiser), while the slot keeps the text as typed or loaded: an
//     edit is mapped back cluster by cluster (areaAccess), so a prefill's
//     skin tone or a draft's bidi control is kept, drawn safely;
//   - backspace and delete take a whole cluster: when huh's rune-wise
//     delete leaves part of one, the rest of it is deleted too (areaKeys).
//
// What huh draws for a cursor standing inside a cluster (a ZWJ emoji, a
// flag) stays its own: the line may then look a few cells short, never long.

// areaText is a textarea's text as clusters, and each as drawn.
type areaText struct {
	raw, shown []string
}

func splitArea(text string) areaText {
	raw := graphemes(text)
	shown := make([]string, len(raw))
	for i, c := range raw {
		shown[i] = drawArea(c)
	}
	return areaText{raw, shown}
}

// areaReplacement stands for a neutralised rune in a textarea: bubbles'
// textarea drops U+FFFD, the sanitisers' mark, as it would a control.
const areaReplacement = "\u2426"

func drawArea(s string) string {
	return strings.ReplaceAll(SanitizeBlock(s), string(replacement), areaReplacement)
}

func (t areaText) drawn() string { return strings.Join(t.shown, "") }

// edit maps the widget's new text v (an edit of t.drawn()) back to raw
// text: the clusters before and after the edited span keep their raw form;
// the span is what was typed — typed, when it is what typed was drawn as.
func (t areaText) edit(v, typed string) string {
	p, at := 0, 0
	for p < len(t.shown) && strings.HasPrefix(v[at:], t.shown[p]) {
		at += len(t.shown[p])
		p++
	}
	q, end := 0, len(v)
	for q < len(t.shown)-p && strings.HasSuffix(v[at:end], t.shown[len(t.shown)-1-q]) {
		end -= len(t.shown[len(t.shown)-1-q])
		q++
	}
	mid := v[at:end]
	if typed != "" && mid == drawTyped(typed) {
		mid = typed
	}
	return strings.Join(t.raw[:p], "") + mid + strings.Join(t.raw[len(t.raw)-q:], "")
}

// drawTyped is typed text as a textarea will hold it: drawn, as if it
// followed text already there (a skin tone typed on its own joins the
// emoji before it).
func drawTyped(s string) string {
	const joiner = "x"
	return strings.TrimPrefix(drawArea(joiner+s), joiner)
}

// areaAccess hands huh the text as drawn and maps its writes back.
type areaAccess struct{ s *slot }

func (a areaAccess) Get() string {
	a.s.area = splitArea(a.s.text)
	return a.s.area.drawn()
}

func (a areaAccess) Set(v string) {
	if v == a.s.area.drawn() {
		return
	}
	text := a.s.area.edit(v, a.s.typed)
	a.s.area = splitArea(text)
	if a.s.area.drawn() != v {
		a.s.redraw = true // the widget holds something not drawable as it is
	}
	textAccess{a.s}.Set(text)
}

// areaKeys runs around each key huh's Text receives: typed text goes in as
// it is drawn (remembered as typed), and a delete that leaves part of a
// cluster takes the rest of it.
func (s *slot) areaKeys(k tea.KeyMsg, forward func(tea.Msg) tea.Cmd) tea.Cmd {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		s.typed = string(k.Runes)
		k.Runes = []rune(drawTyped(s.typed))
		cmd := forward(k)
		s.typed = ""
		return cmd
	case tea.KeyBackspace, tea.KeyDelete, tea.KeyCtrlH, tea.KeyCtrlD:
		before := s.area
		cmd := forward(k)
		back, ahead := cutRest(before.drawn(), s.area.drawn(), before.shown)
		cmds := []tea.Cmd{cmd}
		for range back {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyBackspace}))
		}
		for range ahead {
			cmds = append(cmds, forward(tea.KeyMsg{Type: tea.KeyDelete}))
		}
		return tea.Batch(cmds...)
	}
	return forward(k)
}

// cutRest finds the rune a delete took from before (leaving after) and the
// runes of its cluster that are left before and after it.
func cutRest(before, after string, shown []string) (back, ahead int) {
	if len(after) >= len(before) {
		return 0, 0
	}
	i := 0
	for i < len(after) && before[i] == after[i] {
		i++
	}
	_, size := utf8.DecodeRuneInString(before[i:])
	if before[:i]+before[i+size:] != after {
		return 0, 0 // not one rune: nothing to complete
	}
	start := 0
	for _, c := range shown {
		if i < start+len(c) {
			return utf8.RuneCountInString(before[start:i]), utf8.RuneCountInString(before[i+size : start+len(c)])
		}
		start += len(c)
	}
	return 0, 0
}

func textareaWidget(s *slot) huh.Field {
	t := huh.NewText()
	t.WithTheme(s.theme)
	t.ExternalEditor(s.live.editor)
	t.Key(s.f.Name).Title(s.label()).Lines(4).CharLimit(s.charLimit()).
		Placeholder(SanitizeLine(s.f.Placeholder)).
		Validate(func(string) error { s.confirmed(); return nil })
	t.Accessor(areaAccess{s})
	s.setTitle, s.setDesc = func(v string) { t.Title(v) }, func(v string) { t.Description(v) }
	s.field, s.resync = t, func() { t.Accessor(areaAccess{s}) }
	s.keys = s.areaKeys
	return t
}
