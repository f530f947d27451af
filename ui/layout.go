package ui

// layoutState is what the screen's layout depends on besides the
// terminal's size.
type layoutState struct {
	// paneLines is the height of the pane above the composer as drawn
	// (the tab row, the form or a dialog); 0 when there is none.
	paneLines int
}

// layoutSpec is where everything goes on a screen.
type layoutSpec struct {
	width, height int
	// transcript is the transcript's rows; it takes what the rest leave.
	transcript int
	// composer is the composer's rows and composerWidth its width.
	composer, composerWidth int
	// formWidth and formHeight are the size forms are built at: a taller
	// page scrolls inside the form.
	formWidth, formHeight int
}

// Rows of the screen that are always there besides the composer: the
// notice line and the status line.
const fixedRows = 2

const composerHeight = 2

// layout places the screen's parts for a terminal of w×h. It is pure:
// Update computes it, View only draws what it says.
func layout(w, h int, s layoutState) layoutSpec {
	fw, fh := formSize(w, h)
	spec := layoutSpec{width: w, height: h, composer: composerHeight, composerWidth: max(10, w-2),
		formWidth: fw, formHeight: fh}
	spec.transcript = max(1, h-fixedRows-spec.composer-s.paneLines)
	return spec
}

// formSize is the size forms are built at for a terminal of w×h. It
// depends on the terminal alone, so a chat load can build the form off
// the UI goroutine before the screen shows it. The form keeps to about
// half the screen so the transcript stays readable.
func formSize(w, h int) (width, height int) { return max(20, w-4), max(6, h/2-4) }
