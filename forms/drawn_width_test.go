package forms

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Every line a form draws fits its width as lipgloss measures it and as a
// terminal that measures one character at a time (tmux) does, whatever
// symbols its texts hold: a warning sign, emoji with their presentation
// selector, wide characters. Where the two measures disagree the field's
// border is drawn a cell off (⚠️ is 2 cells to lipgloss, 1 to tmux).
func TestDrawnLinesFitTheirWidthWithSymbols(t *testing.T) {
	texts := []string{
		"⚠ Careful: this looks like a secret (a password, token or key). Enter one only if you trust the server.",
		"⚠️ Careful: this ⚠️ deletes data ⚠️ for good, ✔️ when sure, ☀️ and ❤️ and ✈️ too, and more words",
		"日本語のテキスト⚠です。折り返し、日本語のテキスト⚠です。折り返し",
	}
	for _, typ := range []FieldType{Text, Textarea, Number, Boolean, Select, Multiselect} {
		for ti, text := range texts {
			for w := 24; w <= 80; w += 7 {
				t.Run(fmt.Sprintf("%s/%d/w%d", typ, ti, w), func(t *testing.T) {
					f := Field{Name: "a", Type: typ, Label: "Token ⚠️ " + text[:20], Description: text}
					if typ == Select || typ == Multiselect {
						for _, o := range []string{"⚠️ " + text, "✔️ yes", "b"} {
							f.Options = append(f.Options, Option{Value: o})
						}
					}
					def := Definition{Title: "⚠️ Check", Description: text, Fields: []Field{f, {Name: "b", Type: Text, Description: text}}}
					l := Build(def, nil, nil, nil, BuildOptions{Width: w})
					pump(l.form, l.form.Init())
					lines := strings.Split(l.View(), "\n")
					for _, line := range lines[:len(lines)-1] { // the last is huh's key help
						if got, term := lipgloss.Width(line), ansi.StringWidthWc(line); got > w || got != term {
							t.Fatalf("line of %d cells (%d to a terminal) in %d:\n%q\n%s", got, term, w, line, l.View())
						}
					}
				})
			}
		}
	}
}
