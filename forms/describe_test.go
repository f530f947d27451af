package forms

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// Descriptions draw their light markdown as text, sanitised.
func TestGoldenMarkdownDescriptions(t *testing.T) {
	def := Definition{Title: "Rebuild", Description: "Pick the **index** to rebuild. See [the docs](https://example.com/idx).",
		Fields: []Field{
			{Name: "index", Type: Select, Label: "Index", Description: "The `name` of an *existing* index\x1b[2J",
				Options: []Option{{Value: "users"}, {Value: "orders"}}},
			{Name: "note", Type: Text, Label: "Note", Description: "- optional\n- **short**"},
		}}
	view := start(def, nil, nil, nil).View()
	for _, raw := range []string{"**", "`", "*existing*", "](", "\x1b"} {
		if strings.Contains(view, raw) {
			t.Fatalf("raw %q drawn:\n%s", raw, view)
		}
	}
	for _, want := range []string{"Pick the index to rebuild. See the docs (https://example.", "The name of an existing index", "- short"} {
		if !strings.Contains(view, want) {
			t.Fatalf("no %q:\n%s", want, view)
		}
	}
	t.Run("markdown_descriptions", func(t *testing.T) { golden.RequireEqual(t, []byte(view)) })
}

// A one-question form whose label repeats its title draws it once, with
// the question's marks; other forms keep both.
func TestLabelRepeatingTheTitleIsDrawnOnce(t *testing.T) {
	def := Definition{Title: "What should I work on?", Fields: []Field{{Name: "details", Type: Text, Label: "What should I work on?", Required: true}}}
	view := start(def, nil, nil, nil).View()
	if n := strings.Count(view, "What should I work on?"); n != 1 || !strings.Contains(view, "What should I work on? *") {
		t.Fatalf("drawn %d times:\n%s", n, view)
	}
	t.Run("label_is_title", func(t *testing.T) { golden.RequireEqual(t, []byte(view)) })
	two := def
	two.Fields = append(append([]Field(nil), def.Fields...), Field{Name: "more", Type: Text, Label: "More"})
	if view := start(two, nil, nil, nil).View(); strings.Count(view, "What should I work on?") != 2 {
		t.Fatalf("a two-question form lost its title:\n%s", view)
	}
}
