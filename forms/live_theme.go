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
//   - with colour stripped (NO_COLOR, or a terminal without colour: the
//     ASCII profile draws no attribute at all) what colour or reverse
//     video showed is drawn as text: the cursor is a bar (AsciiCursor), a
//     yes/no field brackets its choice (borders are text), and the focused
//     field keeps its ┃ border.

// defaultThemes are built once per colour profile: building huh's theme
// costs milliseconds, and forms only read it.
func defaultThemes() (*huh.Theme, *huh.Theme) {
	if Colourless() {
		return plainThemes()
	}
	return colourThemes()
}

var colourThemes = sync.OnceValues(func() (*huh.Theme, *huh.Theme) {
	base := huh.ThemeCharm()
	return base, suggestionTheme(base)
})

var plainThemes = sync.OnceValues(func() (*huh.Theme, *huh.Theme) {
	base := withoutColour(huh.ThemeCharm())
	return base, suggestionTheme(base)
})

// withoutColour draws as text what the theme shows with colour alone:
// the chosen button of a yes/no field is bracketed.
func withoutColour(t *huh.Theme) *huh.Theme {
	chosen := lipgloss.Border{Left: "[", Right: "]"}
	other := lipgloss.Border{Left: " ", Right: " "}
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.FocusedButton = fs.FocusedButton.Padding(0, 1).Border(chosen, false, true)
		fs.BlurredButton = fs.BlurredButton.Padding(0, 1).Border(other, false, true)
	}
	return t
}

// themes are a form's theme as given (shared, never written) and the
// copies its fields draw with, which SetFocused rewrites in place.
type themes struct {
	given, givenMuted *huh.Theme
}

func (l *Live) setThemes(t *huh.Theme) {
	if t == nil {
		l.themes.given, l.themes.givenMuted = defaultThemes()
	} else {
		l.themes.given, l.themes.givenMuted = t, suggestionTheme(t)
	}
	base, muted := *l.themes.given, *l.themes.givenMuted
	l.base, l.muted = &base, &muted
}

// SetFocused tells the form whether the screen's focus is on it. A form
// without the focus draws no focused field and no cursor; it is drawn
// focused until told otherwise. Call it whenever the focus moves.
func (l *Live) SetFocused(on bool) {
	if l.unfocused == !on {
		return
	}
	l.unfocused = !on
	l.look++
	*l.base = drawnTheme(l.themes.given, l.unfocused)
	*l.muted = drawnTheme(l.themes.givenMuted, l.unfocused)
	for _, s := range l.slots {
		if s.theme != l.base {
			*s.theme = *pickTheme(s.muted, l.muted, l.base)
		}
	}
	l.redraw()
}

// Focused-style parts stand in for blurred ones while the form lacks the
// screen's focus.
func drawnTheme(t *huh.Theme, unfocused bool) huh.Theme {
	c := *t
	if unfocused {
		c.Focused = c.Blurred
	}
	return c
}

func pickTheme(c bool, a, b *huh.Theme) *huh.Theme {
	if c {
		return a
	}
	return b
}

// suggestionTheme draws values faint and italic so a prefill reads as a
// proposal, not as something the user said.
func suggestionTheme(base *huh.Theme) *huh.Theme {
	t := *base
	for _, fs := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
		fs.TextInput.Text = fs.TextInput.Text.Faint(true).Italic(true)
		fs.SelectedOption = fs.SelectedOption.Faint(true).Italic(true)
		fs.FocusedButton = fs.FocusedButton.Faint(true)
	}
	return &t
}

// Colourless reports the ASCII profile (NO_COLOR, or a terminal without
// colour): styles draw nothing, not even bold or reverse video, so what
// they would show must be drawn as text.
func Colourless() bool { return lipgloss.ColorProfile() == termenv.Ascii }

// AsciiCursor is the text cursor when no attribute can draw one: a bar
// before the cluster it stands on.
const AsciiCursor = "|"
