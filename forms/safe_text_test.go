package forms

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

// Every cluster is drawn in a width terminals agree on, and invisible
// controls are drawn visibly, by the one sanitiser.
func TestSanitiseDrawsAgreedWidths(t *testing.T) {
	cases := []struct{ in, want string }{
		{"hi 👋🏽", "hi 👋"},
		{"👍🏿👍", "👍👍"},
		{"🏽 alone", "🏽 alone"}, // a modifier starting the text is its own glyph
		{"I ❤️ it", "I ❤ it"},
		{"👨\u200d👩\u200d👧 family", "👨\u200d👩\u200d👧 family"},
		{"世界 🇯🇵", "世界 🇯🇵"},
		{"a\u2066b\u2069c\u200fd\u061ce", "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe"},
		{"line\u2028sep\ufeff", "line\uFFFDsep\uFFFD"},
		{"zwnj: می\u200cخواهم", "zwnj: می\u200cخواهم"},
	}
	for _, tc := range cases {
		if got := SanitizeLine(tc.in); got != tc.want {
			t.Errorf("SanitizeLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A value carrying a bidi or other invisible control is refused, in a
// declaration's prefill and options as in an answer.
func TestInvisibleControlsAreRefused(t *testing.T) {
	for _, c := range []string{"\u202e", "\u2066", "\u200f", "\u061c", "\u2028", "\ufeff"} {
		_, probs := ParseDeclaration([]byte(decl(`[`+textField+`]`, `,"prefill":{"a":"x`+c+`y"}`)), nil)
		assertProblems(t, probs, []string{"/prefill/a"}, "control character")
		_, probs = ParseDeclaration([]byte(decl(`[{"name":"a","type":"select","options":["x`+c+`"]}]`, ``)), nil)
		assertProblems(t, probs, []string{"/source/definition/fields/0/options/0"}, "control character")
		_, probs = Normalize(travelDef, map[string]any{"notes": "ok\n" + c}, "/values")
		assertProblems(t, probs, []string{"/values/notes"}, "control character")
	}
	if _, p := Normalize(travelDef, map[string]any{"destination": "👋🏽 👨\u200d👩\u200d👧 ❤️"}, ""); len(p) > 0 {
		t.Fatalf("emoji refused: %v", p)
	}
}

// A draft holding a bidi override (typed before, or from an older
// version) is drawn with U+2426 in the input, kept as it is, and the field
// says why it cannot be sent.
func TestInputDrawsControlsSafelyAndKeepsThem(t *testing.T) {
	def := Definition{Title: "T", Fields: []Field{{Name: "a", Type: Text, Label: "A"}, {Name: "b", Type: Textarea, Label: "B"}}}
	l := start(def, nil, nil, Values{"a": "x\u202ey", "b": "p\u2066q\nr"})
	view := l.View()
	if strings.ContainsAny(view, "\u202e\u2066") || !strings.Contains(view, "x\u2426y") || !strings.Contains(view, "p\u2426q") {
		t.Fatalf("raw control in the inputs:\n%q", view)
	}
	if v := l.Values(); v["a"] != "x\u202ey" || v["b"] != "p\u2066q\nr" {
		t.Fatalf("stored values changed: %q", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(typed("z")), l.Update(press(tea.KeyTab))})
	if v := l.Values()["a"]; v != "x\u202eyz" {
		t.Fatalf("typing changed the rest of the value: %q", v)
	}
	if v := l.View(); !strings.Contains(v, "✗ A contains the control character U+202E") {
		t.Fatalf("no problem beside the field:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(typed("!"))})
	if v, view := l.Values()["b"], l.View(); v != "p\u2066q\nr!" || strings.Contains(view, "\u2066") {
		t.Fatalf("textarea edit: %q\n%q", v, view)
	}
}

// Backspace deletes a whole grapheme cluster (the cursor moves by rune:
// huh's input), and skin tones are drawn without their modifier but kept.
func TestInputEditsGraphemeClusters(t *testing.T) {
	family := "👨\u200d👩\u200d👧"
	def := Definition{Title: "T", Fields: []Field{{Name: "a", Type: Text, Label: "A"}}}
	l := start(def, nil, nil, nil)
	keys := func(ks ...tea.KeyMsg) {
		for _, k := range ks {
			pumpLive(l, []tea.Cmd{l.Update(k)})
		}
	}
	keys(typed("hi "+family), typed("👋🏽"))
	if v := l.Values()["a"]; v != "hi "+family+"👋🏽" {
		t.Fatalf("typed %q", v)
	}
	view := l.View()
	if strings.ContainsRune(view, 0x1f3fd) || !strings.Contains(view, family+"👋") {
		t.Fatalf("drawn %q", view)
	}
	keys(press(tea.KeyBackspace))
	if v := l.Values()["a"]; v != "hi "+family {
		t.Fatalf("backspace left %q", v)
	}
}

// In a textarea, backspace and delete take a whole cluster too, and a
// skin tone loaded or typed is kept while drawn without.
func TestTextareaEditsGraphemeClusters(t *testing.T) {
	family := "👨\u200d👩\u200d👧"
	def := Definition{Title: "T", Fields: []Field{{Name: "n", Type: Textarea, Label: "N"}}}
	l := start(def, nil, nil, Values{"n": "a👋🏽" + family})
	if view := l.View(); strings.ContainsRune(view, 0x1f3fd) {
		t.Fatalf("drawn %q", view)
	}
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyBackspace))})
	if v := l.Values()["n"]; v != "a👋🏽" {
		t.Fatalf("backspace left %q", v)
	}
	pumpLive(l, []tea.Cmd{l.Update(typed("👍🏿"))})
	if v, view := l.Values()["n"], l.View(); v != "a👋🏽👍🏿" || strings.ContainsRune(view, 0x1f3ff) {
		t.Fatalf("typed: %q\n%q", v, view)
	}
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyBackspace))})
	if v := l.Values()["n"]; v != "a👋🏽" {
		t.Fatalf("backspace left %q", v)
	}
}

func TestGoldenGraphemes(t *testing.T) {
	def := Definition{Title: "Greetings 👋🏽", Fields: []Field{
		{Name: "a", Type: Text, Label: "Wave 👋🏽", Required: true},
		{Name: "b", Type: Text, Label: "Family"},
	}}
	l := start(def, nil, nil, Values{"a": "Hi 👋🏽 世界 ❤️", "b": strings.Repeat("👨\u200d👩\u200d👧", 40)})
	t.Run("field_graphemes", func(t *testing.T) { golden.RequireEqual(t, []byte(l.View())) })
}

// Problem messages quote untrusted text cut between clusters, never in one.
func TestClipKeepsClustersWhole(t *testing.T) {
	family := "👨\u200d👩\u200d👧"
	got := clip(strings.Repeat(family, 30))
	if !strings.HasSuffix(got, family+"…") || strings.Count(got, family)*5+1 != len([]rune(got)) {
		t.Fatalf("clip cut a cluster: %q", got)
	}
}
