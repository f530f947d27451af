package forms

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
)

// View draws the page on screen (the keys are the screen's to draw, from
// KeyBinds). A page that fits the height given is drawn whole from its
// fields as they are now; a taller one scrolls in huh's group viewport,
// sized here because huh measures a group before its fields know their
// width and their problems. The drawing is kept while nothing that shows
// changed: a screen redrawn for other reasons (a message streaming in,
// the composer's cursor) does not draw it again.
func (l *Live) View() string {
	if l.drawing != nil {
		return *l.drawing
	}
	var v string
	if l.form.State == huh.StateNormal {
		_, page, _ := l.focused()
		g := l.groups[page]
		v = strings.TrimSuffix(joinNonEmpty("\n", g.Header(), g.Content()), " ")
		if l.maxHeight > 0 && lipgloss.Height(v) > l.maxHeight {
			v = l.scrolled(g, page)
		}
	}
	l.drawing = &v
	return v
}

// scrolled draws a page taller than the form's height: huh's group
// viewport starts at the focused field, and a line under the page's title
// says what problems the fields above it show.
func (l *Live) scrolled(g *huh.Group, page int) string {
	// Where huh's viewport starts: at the focused field, or higher when the
	// fields below it do not fill the rows (a note line taken).
	gap := lipgloss.Height(l.base.FieldSeparator.String()) - 1
	rows := l.maxHeight - lipgloss.Height(g.Header()) - 1
	var ends []int
	top, start := 0, 0
	for _, s := range l.pages[page] {
		if s.field == l.form.GetFocusedField() {
			start = top
		}
		top += lipgloss.Height(s.field.View())
		ends = append(ends, top)
		top += gap
	}
	offset := min(start, max(top-gap-rows, 0))
	var above []*slot
	for i, s := range l.pages[page] {
		if ends[i] <= offset && len(s.problems()) > 0 {
			above = append(above, s)
		}
	}
	h := l.maxHeight
	if len(above) > 0 {
		h--
	}
	if page == 0 && l.def.Description != "" {
		g.Description(Describe(l.def.Description))
		if l.fit(g, h) > 0 {
			g.Description("") // the form's description goes before the field's
		}
	}
	l.fit(g, h)
	g.WithHeight(h)
	l.form.Update(redrawMsg{}) // the group draws its viewport on an update
	v := g.View()
	if len(above) == 0 {
		return v
	}
	msg := SanitizeLine(above[0].problems()[0])
	if label := above[0].label(); !strings.HasPrefix(msg, label) {
		msg = label + ": " + msg
	}
	if len(above) > 1 {
		msg = fmt.Sprintf("%d problems: %s", len(above), msg)
	}
	note := ansi.Truncate("↑ "+problemMark+msg, max(1, l.fieldWidth()), "…")
	note = lipgloss.NewStyle().Foreground(l.base.Focused.ErrorMessage.GetForeground()).Render(note)
	lines := strings.Split(v, "\n")
	at := 0
	if hd := g.Header(); hd != "" {
		at = lipgloss.Height(hd)
	}
	return strings.Join(slices.Insert(lines, at, note), "\n")
}

// fit cuts the focused field's description so that its input shows in a
// form shorter than the field: huh's group shows a focused field from its
// top, and a field taller than the group is cut below. A field the focus
// left gets its whole description back. It returns the rows the field
// with its whole description is too tall by.
func (l *Live) fit(g *huh.Group, height int) int {
	s, _, _ := l.focused()
	if l.fitted != nil && l.fitted != s {
		l.fitted.set(l.fitted.title, l.fitted.desc)
	}
	if l.fitted = s; s == nil {
		return 0
	}
	s.set(s.title, s.desc)
	over := lipgloss.Height(s.field.View()) - (height - lipgloss.Height(g.Header()))
	if over <= 0 || s.desc == "" {
		return max(over, 0)
	}
	w := max(l.fieldWidth()-s.theme.Focused.Base.GetHorizontalFrameSize(), 1)
	lines := strings.Split(cellbuf.Wrap(s.desc, w, ",.-; "), "\n")
	keep := len(lines) - over
	switch {
	case keep <= 0:
		s.set(s.title, "")
	case keep == 1:
		s.set(s.title, ansi.Truncate(lines[0], w-1, "")+"…")
	default:
		s.set(s.title, strings.Join(lines[:keep-1], "\n")+"\n"+ansi.Truncate(lines[keep-1], w-1, "")+"…")
	}
	return over
}

// redrawMsg makes huh's group draw its viewport anew.
type redrawMsg struct{}

// SetMaxHeight bounds the pages' height: a taller page scrolls inside it,
// a shorter one keeps its own height.
func (l *Live) SetMaxHeight(h int) {
	l.maxHeight, l.drawing = h, nil
}

// Resize reflows the form at a new size.
func (l *Live) Resize(width, maxHeight int) tea.Cmd {
	l.width, l.maxHeight, l.drawing = width, maxHeight, nil
	l.form.WithWidth(l.fieldWidth())
	l.resync()
	return nil
}

// resync draws typed fields anew from their text: huh's input measures
// what of a long value it shows only when its text is set.
func (l *Live) resync() {
	l.jumping = true
	defer func() { l.jumping = false }()
	for _, s := range l.slots {
		s.resync()
	}
}

// fieldWidth is the width huh gets: a huh field's width leaves out its
// border, which is drawn beside it.
func (l *Live) fieldWidth() int {
	return l.width - l.base.Focused.Base.GetHorizontalBorderSize()
}

// Edit shows the page holding the named field, focused on it; with no
// such field, the last field of the last page (where a submit left off).
// It is how the screen comes back to a form it had finished or left: the
// form is built anew (a finished huh form ignores input, huh #319).
func (l *Live) Edit(name string) tea.Cmd {
	page, at := len(l.pages)-1, 0
	if page >= 0 {
		at = len(l.pages[page]) - 1
	}
	for p, slots := range l.pages {
		for i, s := range slots {
			if s.f.Name == name {
				page, at = p, i
			}
		}
	}
	l.build()
	if page > 0 || at > 0 {
		l.jump(page, at)
	}
	return l.Init()
}

// SetProblems draws each problem of a refused or reviewed reply beside its
// field: a problem whose path is "/values/<name>" (or below it, e.g.
// "/values/interests/1") goes under the field <name> until the user edits
// that field or SetProblems is called again (nil clears them all). It
// returns the problems that name no asked field (a supplied field, the
// whole reply), for the screen to show elsewhere. Call it before Edit when
// coming back from the review, so the page drawn carries them.
func (l *Live) SetProblems(ps []Problem) []Problem {
	bySlot := map[*slot][]string{}
	var rest []Problem
	for _, p := range ps {
		if s := l.slotAt(p.Path); s != nil {
			bySlot[s] = append(bySlot[s], p.Message)
		} else {
			rest = append(rest, p)
		}
	}
	for _, s := range l.slots {
		if told := bySlot[s]; !slices.Equal(told, s.told) {
			s.told = told
			s.decorate()
		}
	}
	l.titles()
	return rest
}

// slotAt is the asked field a "/values/<name>…" JSON Pointer names.
func (l *Live) slotAt(path string) *slot {
	rest, ok := strings.CutPrefix(path, "/values/")
	if !ok {
		return nil
	}
	name, _, _ := strings.Cut(rest, "/")
	return l.slot(strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~"))
}
