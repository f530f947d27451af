package ui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"

	"followup/ui/style"
)

// The layout is a pure function of the terminal's size and the screen's
// state; every row of a screen large enough is given to exactly one part.
func TestLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		s    layoutState
		want layoutSpec
	}{
		{"100x30 no question", 100, 30, layoutState{},
			layoutSpec{transcript: 26, paneMax: 23, composer: 2, composerWidth: 98, formWidth: 94, formHeight: 11, paneHead: true}},
		{"100x30 a form", 100, 30, layoutState{paneLines: 14},
			layoutSpec{transcript: 12, pane: 14, paneMax: 23, composer: 2, composerWidth: 98, formWidth: 94, formHeight: 11, paneHead: true}},
		{"100x30 a three-line message", 100, 30, layoutState{paneLines: 14, composerLines: 3},
			layoutSpec{transcript: 11, pane: 14, paneMax: 22, composer: 3, composerWidth: 98, formWidth: 94, formHeight: 11, paneHead: true}},
		{"100x30 a long message stops at a third", 100, 30, layoutState{composerLines: 40},
			layoutSpec{transcript: 18, paneMax: 15, composer: 10, composerWidth: 98, formWidth: 94, formHeight: 11, paneHead: true}},
		{"100x30 a tall pane leaves the composer its least", 100, 30, layoutState{paneLines: 25, composerLines: 40},
			layoutSpec{transcript: 3, pane: 23, paneMax: 15, composer: 2, composerWidth: 98, formWidth: 94, formHeight: 11, paneHead: true}},
		{"60x20 a short pane", 60, 20, layoutState{paneLines: 6},
			layoutSpec{transcript: 10, pane: 6, paneMax: 13, composer: 2, composerWidth: 58, formWidth: 54, formHeight: 6, paneHead: true}},
		{"50x15 a form and a tab row", 50, 15, layoutState{paneLines: 9},
			layoutSpec{transcript: 3, pane: 9, paneMax: 10, composer: 1, composerWidth: 48, formWidth: 44, formHeight: 5}},
		{"50x15 a pane taller than the screen", 50, 15, layoutState{paneLines: 30},
			layoutSpec{transcript: 2, pane: 10, paneMax: 10, composer: 1, composerWidth: 48, formWidth: 44, formHeight: 5}},
		{"50x16 a form", 50, 16, layoutState{paneLines: 10},
			layoutSpec{transcript: 3, pane: 10, paneMax: 10, composer: 1, composerWidth: 48, formWidth: 44, formHeight: 5}},
		{"tall 100x60 a tall pane", 100, 60, layoutState{paneLines: 31},
			layoutSpec{transcript: 25, pane: 31, paneMax: 53, composer: 2, composerWidth: 98, formWidth: 94, formHeight: 26, paneHead: true}},
		{"40x12 is too small", 40, 12, layoutState{paneLines: 11},
			layoutSpec{tooSmall: true, composerWidth: 38, formWidth: 34, formHeight: 3}},
		{"49x30 is too narrow", 49, 30, layoutState{},
			layoutSpec{tooSmall: true, composerWidth: 47, formWidth: 43, formHeight: 11, paneHead: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := layout(tc.w, tc.h, tc.s)
			tc.want.width, tc.want.height = tc.w, tc.h
			if got != tc.want {
				t.Fatalf("layout(%d, %d, %+v)\n got %+v\nwant %+v", tc.w, tc.h, tc.s, got, tc.want)
			}
			if got.tooSmall {
				return
			}
			if rows := got.transcript + got.pane + got.composer + fixedRows; rows != tc.h {
				t.Fatalf("%d rows laid out on a %d-row screen", rows, tc.h)
			}
			if got.transcript < minTranscript(tc.h) {
				t.Fatalf("no room for the transcript: %+v", got)
			}
			// A form is as wide as the inside of the pane it is drawn in.
			if inner := lipgloss.Width(style.Pane.Width(tc.w-4).Render("")) - style.Pane.GetHorizontalFrameSize(); got.formWidth != inner {
				t.Fatalf("a form %d wide in a pane %d wide inside", got.formWidth, inner)
			}
			// A form has the rows for its title and a field's input.
			if got.formHeight < minForm {
				t.Fatalf("a form of %d rows hides the field's input: %+v", got.formHeight, got)
			}
			// A form built at formHeight, in its chrome, fits beside the
			// least composer.
			if room := tc.h - fixedRows - minComposer(tc.h) - minTranscript(tc.h); got.formHeight+paneChrome(tc.h) > room {
				t.Fatalf("a form of %d rows does not fit in %d", got.formHeight+paneChrome(tc.h), room)
			}
		})
	}
}
