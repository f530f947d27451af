package forms

import (
	"sync"

	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// A form's look follows the screen's focus and the colour profile:
//
//   - SetFocused(false) draws every field as blurred — no focus border,
//     no cursor — so the user sees where keys go even without colour;
//     values drawn faint and italic are a suggestion (restyle);
//   - with colour stripped (NO_COLOR, or a terminal without colour: the
//     ASCII profile draws no attribute at all) what colour or reverse
//     video showed is drawn as text: the cursor is a bar (AsciiCursor), a
//     yes/no field brackets its choice (borders are text), and the focused
//     field keeps its ┃ border.

// defaultTheme is built once per colour profile: building huh's theme
// costs milliseconds, and forms only read it.
func defaultTheme() *huh.Theme {
	if Colourless() {
		return plainTheme()
	}
	return colourTheme()
}

var colourTheme = sync.OnceValue(huh.ThemeCharm)

var plainTheme = sync.OnceValue(func() *huh.Theme {
	t := huh.ThemeCharm()
	chosen := lipgloss.Border{Left: "[", Right: "]"}
	other := lipgloss.Border{Left: " ", Right: " "}
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.FocusedButton = fs.FocusedButton.Padding(0, 1).Border(chosen, false, true)
		fs.BlurredButton = fs.BlurredButton.Padding(0, 1).Border(other, false, true)
	}
	t.Focused.TextInput.Cursor = t.Focused.TextInput.Cursor.Transform(func(c string) string { return AsciiCursor + c })
	return t
})

// restyle gives the field its look: values drawn faint and italic while
// they are a suggestion, so a prefill reads as a proposal, not as
// something the user said; a yes/no marks no choice until one is made.
func (s *slot) restyle() {
	t := *s.live.base
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		if s.suggested {
			fs.TextInput.Text = fs.TextInput.Text.Faint(true).Italic(true)
			fs.SelectedOption = fs.SelectedOption.Faint(true).Italic(true)
			fs.FocusedButton = fs.FocusedButton.Faint(true)
		}
		if s.yesNo && !s.has {
			fs.FocusedButton = fs.BlurredButton
		}
	}
	*s.theme = t
	s.shown = nil
}

// SetFocused tells the form whether the screen's focus is on it. A form
// without the focus draws its focused field blurred, with no cursor; it is
// drawn focused until told otherwise. Call it whenever the focus moves.
func (l *Live) SetFocused(on bool) {
	f := l.form.GetFocusedField()
	if l.unfocused == !on || f == nil {
		return
	}
	l.unfocused, l.drawing = !on, nil
	if on {
		f.Focus()
		return
	}
	l.jumping = true // not the user leaving the field
	f.Blur()
	l.jumping = false
}

// Colourless reports the ASCII profile (NO_COLOR, or a terminal without
// colour): styles draw nothing, not even bold or reverse video, so what
// they would show must be drawn as text.
func Colourless() bool { return lipgloss.ColorProfile() == termenv.Ascii }

// AsciiCursor is the text cursor when no attribute can draw one: a bar
// before the cluster it stands on.
const AsciiCursor = "|"
