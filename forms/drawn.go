package forms

import (
	"github.com/rivo/uniseg"
	"slices"
	"strings"
	"unicode/utf8"
)

// DrawnText is text kept two ways for a widget that edits and draws runes
// (bubbles' textarea, huh's Text): as typed, and as the widget holds it —
// each grapheme cluster drawn through the sanitiser, so the widget's
// measure is the terminal's (see sanitize.go). An edit the widget makes is
// mapped back cluster by cluster (Edit), so a skin tone or a bidi control
// in the text as typed is kept, and drawn safely.
type DrawnText struct {
	raw, shown []string
}

// SplitDrawn splits text into clusters, each as typed and as drawn.
func SplitDrawn(text string) DrawnText {
	raw := graphemes(text)
	shown := make([]string, len(raw))
	for i, c := range raw {
		shown[i] = drawArea(c)
	}
	return DrawnText{raw, shown}
}

// areaReplacement stands for a neutralised rune in a textarea: bubbles'
// textarea drops U+FFFD, the sanitisers' mark, as it would a control.
const areaReplacement = "\u2426"

func drawArea(s string) string {
	return strings.ReplaceAll(SanitizeBlock(s), string(replacement), areaReplacement)
}

// Text is the text as typed.
func (t DrawnText) Text() string { return strings.Join(t.raw, "") }

// Drawn is the text as the widget holds it.
func (t DrawnText) Drawn() string { return strings.Join(t.shown, "") }

// Edit maps the widget's new text v (an edit of t.Drawn()) back to the
// text as typed: the clusters before and after the edited span keep their
// typed form; the span is what the widget holds — or typed, the text of
// the key that made the edit, when it is what typed was drawn as.
func (t DrawnText) Edit(v, typed string) string {
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
	if typed != "" && mid == DrawTyped(typed) {
		mid = typed
	}
	return strings.Join(t.raw[:p], "") + mid + strings.Join(t.raw[len(t.raw)-q:], "")
}

// DrawTyped is typed text as the widget is to hold it: drawn, as if it
// followed text already there (a skin tone typed on its own joins the
// emoji before it).
func DrawTyped(s string) string {
	const joiner = "x"
	return strings.TrimPrefix(drawArea(joiner+s), joiner)
}

// Rest finds the rune a one-rune delete took from t.Drawn(), leaving
// after, and counts the runes of its cluster left before it (back) and
// after it (ahead): deleting those too deletes the whole cluster.
func (t DrawnText) Rest(after string) (back, ahead int) {
	before := t.Drawn()
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
	for _, c := range t.shown {
		if i < start+len(c) {
			return utf8.RuneCountInString(before[start:i]), utf8.RuneCountInString(before[i+size : start+len(c)])
		}
		start += len(c)
	}
	return 0, 0
}

// Boundary is the rune offset nearest to col (a rune offset into line,
// text as drawn) that does not fall inside a grapheme cluster: col itself
// when it is one, else the start of its cluster (back) or the end.
func Boundary(line string, col int, back bool) int {
	at := 0
	for _, c := range graphemes(line) {
		n := utf8.RuneCountInString(c)
		if col < at+n {
			if col == at || back {
				return at
			}
			return at + n
		}
		at += n
	}
	return col
}

// UndrawnSkinTone reports whether drawing s leaves out a skin tone it
// holds (an emoji modifier joined to what precedes it).
func UndrawnSkinTone(s string) bool {
	prev := rune(-1)
	for _, r := range s {
		if isEmojiModifier(r) && prev >= 0x20 && prev != 0x7f {
			return true
		}
		prev = r
	}
	return false
}

// undrawnSkinTone is UndrawnSkinTone for a value of any kind: text, or a
// list holding text.
func undrawnSkinTone(v any) bool {
	switch v := v.(type) {
	case string:
		return UndrawnSkinTone(v)
	case []string:
		return slices.ContainsFunc(v, UndrawnSkinTone)
	case []any:
		return slices.ContainsFunc(v, undrawnSkinTone)
	}
	return false
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
