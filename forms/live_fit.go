package forms

import "github.com/charmbracelet/huh"

// How a field fits the height a short form gives it (huh gives a field
// that is taller than the form's room that room, and shows the focused
// field from its top): its input keeps its rows, and the head above it —
// the title, the description, the hint — gives up lines instead, the
// title's first line last of all (which question this is).

// fitHead cuts a field's head to leave keep of its room rows for the
// input. parts are the head's wrapped lines, in the order they keep
// their lines (the title first); a part that loses lines ends in "…". It
// returns the rows the head leaves.
func fitHead(room, keep, width int, parts ...*[]string) (left int) {
	head := max(room-keep, min(room-1, 1), 0)
	left = room
	for _, p := range parts {
		*p = cutLines(*p, head, width)
		head -= len(*p)
		left -= len(*p)
	}
	return left
}

// fieldRoom is the rows inside a field's frame at height (0: unbounded).
func fieldRoom(st *huh.FieldStyles, height int) int {
	if height <= 0 {
		return 0
	}
	return max(height-st.Base.GetVerticalFrameSize(), 1)
}
