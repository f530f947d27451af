package forms

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// areaKeep is the rows a textarea keeps before its head gives up lines:
// the cursor's line (bubbles' textarea scrolls to it) and one more.
const areaKeep = 2

// areaLines is a textarea's height when the form has room.
const areaLines = 4

// sizedArea is huh's Text fitted to the height the form gives it: huh
// counts the title and the description as a line each, so a description
// that wraps pushed the text under the form's bottom. Given a height, the
// title and description are cut (fitHead) and the text gets the rows
// left, up to areaLines.
type sizedArea struct {
	*huh.Text
	s                  *slot
	width              int
	height             int    // 0: unbounded
	focused            bool   // huh's focus (the screen's is the form's unfocused)
	title, about, hint string // as decorate set them, uncut
}

// fit sets the Text's title, description and height from the room.
func (a *sizedArea) fit() {
	st := &a.s.theme.Focused
	room := fieldRoom(st, a.height)
	if room == 0 {
		a.Text.Title(a.title).Description(joinNonEmpty("\n", a.about, a.hint))
		return
	}
	width := 0 // huh's own: not wrapped
	if a.width > 0 {
		width = max(a.width-st.Base.GetHorizontalFrameSize(), 1)
	}
	title, about, hint := wrapLines(a.title, width), wrapLines(a.about, width), wrapLines(a.hint, width)
	rows := min(fitHead(room, areaKeep, width, &title, &hint, &about), areaLines)
	desc := slices.Concat(about, hint)
	a.Text.Title(strings.Join(title, "\n")).Description(strings.Join(desc, "\n"))
	// huh's Text takes its title and description for a line each
	heads := min(len(title), 1) + min(len(desc), 1)
	a.Text.WithHeight(max(rows, 1) + heads + st.Base.GetVerticalFrameSize())
}

// Update forwards msg to huh's Text. Without colour the cursor does not
// blink: the bar takes a cell, so a blinking one would shift the text
// after it on every blink.
func (a *sizedArea) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, blink := msg.(cursor.BlinkMsg); blink && Colourless() {
		return a, nil
	}
	_, cmd := a.Text.Update(msg)
	return a, cmd
}

func (a *sizedArea) Focus() tea.Cmd {
	a.focused = true
	return a.Text.Focus()
}

func (a *sizedArea) Blur() tea.Cmd {
	a.focused = false
	return a.Text.Blur()
}

func (a *sizedArea) WithTheme(t *huh.Theme) huh.Field { a.Text.WithTheme(t); return a }

func (a *sizedArea) WithKeyMap(k *huh.KeyMap) huh.Field { a.Text.WithKeyMap(k); return a }

func (a *sizedArea) WithAccessible(on bool) huh.Field { a.Text.WithAccessible(on); return a }

func (a *sizedArea) WithPosition(p huh.FieldPosition) huh.Field { a.Text.WithPosition(p); return a }

func (a *sizedArea) WithWidth(w int) huh.Field {
	a.width = w
	a.Text.WithWidth(w)
	a.fit()
	return a
}

func (a *sizedArea) WithHeight(h int) huh.Field {
	a.height = h
	a.fit()
	return a
}
