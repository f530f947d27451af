package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestPaneFrameDrawsWhatLipglossDraws: the frame drawn line by line, with
// lines kept from the frame before, is byte for byte the frame lipgloss
// draws around the whole text — for plain, styled, wide, empty, tabbed
// and too-long lines, lines with several lines in them, both pane styles,
// several widths and colour profiles.
func TestPaneFrameDrawsWhatLipglossDraws(t *testing.T) {
	long := strings.Repeat("word ", 40)
	texts := [][]string{
		{""},
		{"one line"},
		{stBold.Render("Deploy the service"), "", stDim.Render("a reason, dim"), "  > " + stCode.Render("typed")},
		{"wide: 日本語のテキスト 👨‍👩‍👧 é", "\ttabbed\tline", "trailing spaces   "},
		{long, "after a long line", strings.Repeat("x", 300)},
		{"a field\nits second line\n\nafter an empty one", stError.Render("a problem") + " and more"},
		{stBold.Render("bold opened") + "\x1b[1m across\nlines\x1b[0m", "│ a line that draws a border itself │"},
	}
	defer lipgloss.SetColorProfile(lipgloss.ColorProfile())
	for _, profile := range []termenv.Profile{termenv.TrueColor, termenv.ANSI, termenv.Ascii} {
		lipgloss.SetColorProfile(profile)
		for _, width := range []int{16, 76, 116} {
			var f paneFrame
			for round := range 2 { // the second draws from what the first kept
				for _, focused := range []bool{true, false} {
					for _, lines := range texts {
						style := paneStyle(focused)
						want := style.Width(width).Render(strings.Join(lines, "\n"))
						if got := f.draw(style, width, lines); got != want {
							t.Fatalf("profile %v, width %d, focused %v, round %d, lines %q:\ngot\n%s\nwant\n%s", profile, width, focused, round, lines, got, want)
						}
					}
				}
			}
		}
	}
}

// TestPaneFrameDrawsOnlyChangedLines: a frame whose lines are those of the
// frame before but one draws that one line alone; what it keeps is the
// last frame's lines.
func TestPaneFrameDrawsOnlyChangedLines(t *testing.T) {
	var f paneFrame
	lines := []string{"title", "field one", "field two", "hint"}
	f.draw(stPane, 60, lines)
	if f.misses != 4 {
		t.Fatalf("the first frame drew %d lines, want 4", f.misses)
	}
	lines[1] = "field one, typed"
	f.draw(stPane, 60, lines)
	if f.misses != 5 {
		t.Fatalf("a frame with one line changed drew %d lines, want 1", f.misses-4)
	}
	if len(f.kept) != 4 {
		t.Fatalf("%d lines kept, want the last frame's 4", len(f.kept))
	}
	if _, ok := f.kept["field one"]; ok {
		t.Fatal("a line no longer drawn is still kept")
	}
}
