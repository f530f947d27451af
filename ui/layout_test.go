package ui

import "testing"

// The layout is a pure function of the terminal's size and the screen's
// state; every row of the screen is given to exactly one part.
func TestLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		s    layoutState
		want layoutSpec
	}{
		{"100x30 no question", 100, 30, layoutState{},
			layoutSpec{transcript: 26, composer: 2, composerWidth: 98, formWidth: 96, formHeight: 11}},
		{"100x30 a form", 100, 30, layoutState{paneLines: 14},
			layoutSpec{transcript: 12, composer: 2, composerWidth: 98, formWidth: 96, formHeight: 11}},
		{"60x20 a short pane", 60, 20, layoutState{paneLines: 6},
			layoutSpec{transcript: 10, composer: 2, composerWidth: 58, formWidth: 56, formHeight: 6}},
		{"50x15 a form", 50, 15, layoutState{paneLines: 9},
			layoutSpec{transcript: 2, composer: 2, composerWidth: 48, formWidth: 46, formHeight: 6}},
		{"40x12 no question", 40, 12, layoutState{},
			layoutSpec{transcript: 8, composer: 2, composerWidth: 38, formWidth: 36, formHeight: 6}},
		{"tall 100x60 a tall pane", 100, 60, layoutState{paneLines: 31},
			layoutSpec{transcript: 25, composer: 2, composerWidth: 98, formWidth: 96, formHeight: 26}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := layout(tc.w, tc.h, tc.s)
			tc.want.width, tc.want.height = tc.w, tc.h
			if got != tc.want {
				t.Fatalf("layout(%d, %d, %+v)\n got %+v\nwant %+v", tc.w, tc.h, tc.s, got, tc.want)
			}
			if rows := got.transcript + tc.s.paneLines + got.composer + fixedRows; rows != tc.h {
				t.Fatalf("%d rows laid out on a %d-row screen", rows, tc.h)
			}
		})
	}
}
