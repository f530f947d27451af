package forms

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// How a textarea's cursor is drawn beside huh's own: bubbles' textarea
// draws it in reverse video whenever the field has huh's focus, which
// shows nothing without colour and still shows while the screen's focus
// is elsewhere (SetFocused). The cursor's style marks the cell it draws,
// and View puts in its place what the one-line fields draw there: a bar
// without colour, the bare cell while the form lacks the screen's focus.

// areaCursorOpen and areaCursorClose enclose the cursor's cell in the
// textarea's drawing until View draws it: APC strings have no width and
// survive the textarea's wrapping and padding.
const (
	areaCursorOpen  = "\x1b_followup-cursor\x1b\\"
	areaCursorClose = "\x1b_followup-cursor-end\x1b\\"
)

// areaCursorCell is the marked cell with the attributes the cursor's
// style put around it (reverse video), which a hidden cursor drops.
var areaCursorCell = regexp.MustCompile(`(?:\x1b\[[0-9;]*m)?` + regexp.QuoteMeta(areaCursorOpen) +
	`(.*?)` + regexp.QuoteMeta(areaCursorClose) + `(?:\x1b\[0?m)?`)

// View draws huh's Text, its cursor as the one-line fields draw theirs:
// without colour (NO_COLOR) a bar before the cell it is on, taking the
// room of one padding space, steady (Update); none while the form lacks
// the screen's focus.
func (a *sizedArea) View() string {
	hidden := a.s.live.unfocused
	if !a.focused || (!hidden && !Colourless()) {
		return a.Text.View()
	}
	in := &a.s.theme.Focused.TextInput
	cursor := in.Cursor
	in.Cursor = cursor.Transform(func(s string) string { return areaCursorOpen + s + areaCursorClose })
	v := a.Text.View()
	in.Cursor = cursor
	if hidden {
		return areaCursorCell.ReplaceAllString(v, "$1")
	}
	lines := strings.Split(v, "\n")
	for i, line := range lines {
		at := strings.Index(line, areaCursorOpen)
		if at < 0 {
			continue
		}
		rest := strings.Replace(line[at+len(areaCursorOpen):], areaCursorClose, "", 1)
		switch {
		case strings.HasPrefix(rest, " "):
			rest = rest[1:] // the bar takes the cursor's blank cell
		case strings.HasSuffix(rest, " "):
			rest = rest[:len(rest)-1] // the bar is a cell of its own
		default: // a full line: its last cell gives way while the cursor is on it
			rest = ansi.Truncate(rest, ansi.StringWidth(rest)-1, "")
		}
		lines[i] = line[:at] + AsciiCursor + rest
	}
	return strings.Join(lines, "\n")
}
