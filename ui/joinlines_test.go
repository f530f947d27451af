package ui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestLineJoinStacksAsLipgloss: stacking with widths kept from the frame
// before gives exactly lipgloss.JoinVertical's Left stacking, and a frame
// that changes one line measures that line alone.
func TestLineJoinStacksAsLipgloss(t *testing.T) {
	cases := [][]string{
		{},
		{"one block\ntwo lines"},
		{"short", stBold.Render("a wider styled line"), ""},
		{"日本語 👨‍👩‍👧\nx", "\n\n", stPane.Width(30).Render("a pane\nwith lines"), "status"},
		{"", ""},
	}
	var j lineJoin
	for round := range 2 {
		for _, blocks := range cases {
			if got, want := j.join(blocks...), lipgloss.JoinVertical(lipgloss.Left, blocks...); got != want {
				t.Fatalf("round %d, blocks %q:\ngot  %q\nwant %q", round, blocks, got, want)
			}
		}
	}
	var k lineJoin
	screen := []string{"transcript line one\ntranscript line two", "the form: typed", "composer", "status"}
	k.join(screen...)
	before := k.misses
	screen[1] = "the form: typed more"
	if got, want := k.join(screen...), lipgloss.JoinVertical(lipgloss.Left, screen...); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if n := k.misses - before; n != 1 {
		t.Fatalf("a frame with one line changed measured %d lines, want 1", n)
	}
	if _, ok := k.kept["the form: typed"]; ok {
		t.Fatal("a line no longer drawn is still kept")
	}
}
