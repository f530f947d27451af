package ui

import (
	"followup/ui/style"
)

// layoutState is what the screen's layout depends on besides the
// terminal's size.
type layoutState struct {
	// paneLines is the height of the pane above the composer as drawn
	// (the tab row, the form or a dialog); 0 when there is none.
	paneLines int
	// composerLines is how many lines the composer's text takes.
	composerLines int
	// noticeLines is how many lines the notice takes (ui/status wraps a
	// long one); 0 counts as the one line it always has.
	noticeLines int
	// chipLines are the lines naming what is attached to the next message.
	chipLines int
}

// layoutSpec is where everything goes on a screen.
type layoutSpec struct {
	width, height int
	// tooSmall: below minWidth×minHeight the screen only says so.
	tooSmall bool
	// transcript is the transcript's rows; it takes what the rest leave.
	transcript int
	// pane is the rows the pane takes; paneMax is the most a dialog in it
	// may take (a taller one scrolls inside).
	pane, paneMax int
	// composer is the composer's rows and composerWidth its width. It
	// grows with its text up to a third of the screen, then scrolls.
	composer, composerWidth int
	// formWidth and formHeight are the size forms are built at: a taller
	// page scrolls inside the form.
	formWidth, formHeight int
	// paneHead: the pane has room for the line saying why a question is
	// asked.
	paneHead bool
}

const (
	// minWidth and minHeight are the smallest screen that stays usable
	// (a common tmux split).
	minWidth, minHeight = 50, 15
	// fixedRows are the notice line and the status line.
	fixedRows = 2
	// minForm is the fewest rows a form is built at: its title and
	// description, and a field's title, description and input, so the
	// line typed in stays in view.
	minForm = 5
)

// layout places the screen's parts for a terminal of w×h. It is pure:
// Update computes it, View only draws what it says. The pane comes before
// the composer's growth, the composer before the transcript.
func layout(w, h int, s layoutState) layoutSpec {
	fw, fh := formSize(w, h)
	spec := layoutSpec{width: w, height: h, composerWidth: max(10, w-2), formWidth: fw, formHeight: fh,
		paneHead: h >= 20}
	if w < minWidth || h < minHeight {
		spec.tooSmall = true
		return spec
	}
	least, fixed := minComposer(h), fixedRows+max(0, s.noticeLines-1)+s.chipLines
	want := min(max(s.composerLines, least), max(least, h/3))
	spec.paneMax = h - fixed - want - minTranscript(h)
	spec.pane = min(s.paneLines, h-fixed-least-minTranscript(h))
	spec.composer = max(least, min(want, h-fixed-spec.pane-minTranscript(h)))
	spec.transcript = h - fixed - spec.pane - spec.composer
	return spec
}

// minTranscript is the fewest rows the transcript keeps under a form or
// a dialog: three (the newest entry's last lines, not its card alone),
// fewer on a screen too short for that beside a form of minForm rows, one
// at the least.
func minTranscript(h int) int {
	return max(1, min(3, h-fixedRows-minComposer(h)-paneChrome(h)-minForm))
}

// minComposer is the composer's height with no text: two rows, one on a
// short screen.
func minComposer(h int) int {
	if h < 20 {
		return 1
	}
	return 2
}

// paneChrome is the pane's rows around a form: the tab row, the frame,
// the line saying why it is asked (on a screen tall enough), the hint
// line, and a line for a notice (a waiting dialog, a problem).
func paneChrome(h int) int {
	if h >= 20 {
		return 6
	}
	return 5
}

// formSize is the size forms are built at for a terminal of w×h. It
// depends on the terminal alone, so a chat load can build the form off
// the UI goroutine before the screen shows it. The form keeps to about
// half the screen so the transcript stays readable, and always leaves the
// composer and a line of transcript their room.
func formSize(w, h int) (width, height int) {
	room := h - fixedRows - minComposer(h) - minTranscript(h) - paneChrome(h)
	return max(20, style.PaneInner(w)), max(3, min(max(6, h/2-4), room))
}
