package forms

import (
	"fmt"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// bigDef is a 32-field form mixing every type, as the docs/performance.md budget
// names ("one keystroke in a 32-field form").
func bigDef() Definition {
	def := Definition{Title: "Everything"}
	for i := 0; i < MaxFields; i++ {
		f := Field{Name: fmt.Sprintf("f%02d", i), Label: fmt.Sprintf("Question %d", i), Description: "Some guidance", Required: i%3 == 0}
		switch i % 8 {
		case 0, 1:
			f.Type = Text
		case 2:
			f.Type, f.Format = Text, "date"
		case 3:
			f.Type = Textarea
		case 4:
			f.Type, f.Min, f.Max = Integer, fp(1), fp(12)
		case 5:
			f.Type = Boolean
		case 6:
			f.Type, f.Options = Select, []Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}
		case 7:
			f.Type, f.Options, f.MaxItems = Multiselect, []Option{{Value: "x"}, {Value: "y"}, {Value: "z"}}, ip(2)
		}
		def.Fields = append(def.Fields, f)
	}
	return def
}

// BenchmarkKeystroke32Fields is one key typed into the 32-field form and
// the form drawn, as the screen does it (Live.Update, Live.View).
func BenchmarkKeystroke32Fields(b *testing.B) {
	l := Build(bigDef(), nil, Values{"f00": "hello"}, nil, BuildOptions{Width: 80})
	pump(l.form, l.form.Init())
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'a'}}, {Type: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Update(keys[i%2])
		_ = l.View()
	}
}

// BenchmarkRedrawIdle is the form drawn again with nothing changed: a
// screen redrawn for another reason (a streamed reply, the composer).
func BenchmarkRedrawIdle(b *testing.B) {
	l := Build(bigDef(), nil, Values{"f00": "hello"}, nil, BuildOptions{Width: 80})
	pump(l.form, l.form.Init())
	_ = l.View()
	b.ReportAllocs()
	for b.Loop() {
		_ = l.View()
	}
}

// BenchmarkBuild32Fields builds the 32-field form with a suggestion, as a
// chat load does before the form is shown.
func BenchmarkBuild32Fields(b *testing.B) {
	def := bigDef()
	prefill := Values{"f00": "hello", "f06": "b"}
	b.ReportAllocs()
	for b.Loop() {
		_ = Build(def, nil, prefill, nil, BuildOptions{Width: 116}).form.View()
	}
}

// BenchmarkKeystrokeLongList is the cursor moved in a described select of
// 100 options, windowed at a short height, and the form drawn: the list
// lays out its window on every key.
func BenchmarkKeystrokeLongList(b *testing.B) {
	f := Field{Name: "pick", Type: Select, Label: "Pick one", Description: "Some guidance that is long enough to wrap over two or three lines at this width, as descriptions do."}
	for i := range MaxOptions {
		f.Options = append(f.Options, Option{Value: fmt.Sprintf("v%03d", i), Label: fmt.Sprintf("Option %d", i)})
	}
	l := Build(Definition{Title: "Long", Fields: []Field{f, {Name: "after", Type: Text}}}, nil, nil, nil, BuildOptions{Width: 80})
	pump(l.form, l.form.Init())
	l.SetMaxHeight(12)
	keys := []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyUp}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Update(keys[i%2])
		_ = l.View()
	}
}

// BenchmarkKeystrokeTallPage is one key typed into a page taller than its
// room (the first page of the 32-field form in eight lines), the form drawn: the window over
// the page's fields is worked out on every draw.
func BenchmarkKeystrokeTallPage(b *testing.B) {
	l := Build(bigDef(), nil, Values{"f00": "hello"}, nil, BuildOptions{Width: 80})
	pump(l.form, l.form.Init())
	l.SetMaxHeight(8)
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'a'}}, {Type: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l.Update(keys[i%2])
		_ = l.View()
	}
}
