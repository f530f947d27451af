package forms

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// A focused input whose description is taller than the room the form
// has keeps its label's first line and its input in view: the
// description is cut, ending in "…" (at 50×15 the secret warning of an
// MCP server's question pushed the token's input out of sight).

const longAbout = "Careful: this looks like a secret (a password, token or key). " +
	"MCP servers must not ask for secrets in a form: enter one only if you trust this server and know why it asks."

// inputKinds are the fields typed into, each with a value to find its
// input by (a yes/no's is its buttons).
var inputKinds = []struct {
	f       Field
	prefill any
	input   string
}{
	{Field{Name: "token", Type: Text, Label: "API token", Description: longAbout, Required: true}, "abc", "> abc"},
	{Field{Name: "port", Type: Integer, Label: "Port", Description: longAbout, Min: fp(1), Max: fp(65535)}, int64(8080), "> 8080"},
	{Field{Name: "notes", Type: Textarea, Label: "Notes", Description: longAbout}, "line one", "line one"},
	{Field{Name: "ok", Type: Boolean, Label: "Trust this server", Description: longAbout}, nil, "Yes"},
}

// inputDrawn reports that view shows the label and a line holding input.
func inputDrawn(view, label, input string) bool {
	var hasLabel, hasInput bool
	for _, line := range strings.Split(view, "\n") {
		body := strings.TrimLeft(line, "┃ ")
		hasLabel = hasLabel || strings.HasPrefix(body, label)
		hasInput = hasInput || strings.Contains(body, input)
	}
	return hasLabel && hasInput
}

func TestFocusedInputDrawnAtEveryHeight(t *testing.T) {
	for _, k := range inputKinds {
		f := k.f
		def := Definition{Title: "Question from fake", Fields: []Field{{Name: "first", Type: Text, Label: "First"}, f}}
		for height := 4; height <= 16; height++ {
			t.Run(fmt.Sprintf("%s/h%d", f.Type, height), func(t *testing.T) {
				var prefill Values
				if k.prefill != nil {
					prefill = Values{f.Name: k.prefill}
				}
				l := Build(def, nil, prefill, nil, BuildOptions{Width: 46})
				pump(l.Form(), l.Form().Init())
				l.SetMaxHeight(height)
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
				check := func(when string) {
					t.Helper()
					v := l.View()
					if !inputDrawn(v, f.Label, k.input) {
						t.Fatalf("%s: %s's input out of view at height %d:\n%s", when, f.Name, height, v)
					}
					if got := lipgloss.Height(v); got > height {
						t.Fatalf("%s: %d lines drawn in %d:\n%s", when, got, height, v)
					}
					// (a description with no room left is not drawn at all)
					if strings.Contains(v, "Careful") && !strings.Contains(v, "it asks.") && !strings.Contains(v, "…") {
						t.Fatalf("%s: the cut description does not end in …:\n%s", when, v)
					}
				}
				check("tab")
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyShiftTab))})
				pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyTab))})
				check("shift+tab, tab")
				if f.Type != Boolean {
					pumpLive(l, []tea.Cmd{l.Update(typed("8x"))})
					check("typed")
				}
			})
		}
	}
}

// The goldens are each kind focused in a form of its own at the heights
// a 50×15 screen gives (5 rows, the fewest, and 7), and with room.
func TestGoldenInputsInShortForms(t *testing.T) {
	for _, k := range inputKinds {
		for _, height := range []int{5, 7, 0} {
			t.Run(fmt.Sprintf("%s/h%d", k.f.Type, height), func(t *testing.T) {
				var prefill Values
				if k.prefill != nil {
					prefill = Values{k.f.Name: k.prefill}
				}
				l := Build(Definition{Title: "Question from fake", Fields: []Field{k.f}}, nil, prefill, nil, BuildOptions{Width: 46})
				pump(l.Form(), l.Form().Init())
				if height > 0 {
					l.SetMaxHeight(height)
				}
				golden(t, fmt.Sprintf("input_%s_h%d", k.f.Type, height), l.View())
			})
		}
	}
}
