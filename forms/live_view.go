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
// KeyBinds): its title and its fields as huh draws them. A page taller
// than the height given shows the rows from its focused field down, as
// huh's group viewport would — drawn here from the fields' own drawings,
// since huh sizes that viewport before its fields know their width and
// their problems, and draws every field again to fill it. The drawing is
// kept while nothing that shows changed: a screen redrawn for other
// reasons (a message streaming in, the composer's cursor) does not draw it
// again.
func (l *Live) View() string {
	if l.drawing != nil {
		return *l.drawing
	}
	var v string
	switch _, page, _ := l.focused(); {
	case l.form.State != huh.StateNormal:
	case len(l.pages) == 0: // the note that nothing is left to ask
		v = joinNonEmpty("\n", l.groups[0].Header(), l.groups[0].Content())
	default:
		v = l.page(page)
	}
	l.drawing = &v
	return v
}

// page draws page i: its header, then its fields, whole or from the
// focused one down; a line under the title says what problems the fields
// scrolled above show.
func (l *Live) page(i int) string {
	g, head := l.groups[i], ""
	if i == 0 && l.def.Description != "" {
		g.Description(Describe(l.def.Description))
	}
	views := l.views(i)
	body := strings.Join(views, l.base.FieldSeparator.String())
	if head = g.Header(); l.maxHeight <= 0 || lipgloss.Height(joinNonEmpty("\n", head, body)) <= l.maxHeight {
		return strings.TrimSuffix(joinNonEmpty("\n", head, body), " ")
	}
	if i == 0 && l.def.Description != "" && l.fit(g, l.maxHeight-1) > 0 {
		g.Description("") // the form's description goes before the field's
		head = g.Header()
	}
	rows := l.maxHeight - lipgloss.Height(head)
	above := l.above(i, views, rows-1) // with a line for the note
	if len(above) > 0 {
		rows--
	}
	l.fit(g, rows+lipgloss.Height(head))
	views = l.views(i)
	lines := strings.Split(strings.Join(views, l.base.FieldSeparator.String()), "\n")
	start, _ := l.spans(i, views)
	from := min(start, max(len(lines)-rows, 0))
	lines = lines[from:min(from+rows, len(lines))]
	if len(above) > 0 {
		lines = append([]string{l.note(above)}, lines...)
	}
	return joinNonEmpty("\n", head, strings.Join(lines, "\n"))
}

// spans are where the focused field of page i starts and where each field
// ends, in lines of the page's fields drawn as views.
func (l *Live) spans(i int, views []string) (start int, ends []int) {
	gap := lipgloss.Height(l.base.FieldSeparator.String()) - 2 // the lines a separator adds between two fields
	top := 0
	for j, s := range l.pages[i] {
		if s.field == l.form.GetFocusedField() {
			start = top
		}
		top += lipgloss.Height(views[j])
		ends = append(ends, top)
		top += gap
	}
	return start, ends
}

// above are the fields of page i with a problem, scrolled out of rows
// rows above the focused one.
func (l *Live) above(i int, views []string, rows int) []*slot {
	start, ends := l.spans(i, views)
	total := ends[len(ends)-1]
	var out []*slot
	for j, s := range l.pages[i] {
		if ends[j] <= min(start, max(total-rows, 0)) && len(s.problems()) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// views are the drawings of page i's fields.
func (l *Live) views(i int) []string {
	out := make([]string, len(l.pages[i]))
	for j, s := range l.pages[i] {
		out[j] = s.field.View()
	}
	return out
}

// note says the problems of the fields scrolled above: how many when more
// than one, and the first in words.
func (l *Live) note(above []*slot) string {
	msg := SanitizeLine(above[0].problems()[0])
	if label := above[0].label(); !strings.HasPrefix(msg, label) {
		msg = label + ": " + msg
	}
	if len(above) > 1 {
		msg = fmt.Sprintf("%d problems: %s", len(above), msg)
	}
	note := ansi.Truncate("↑ "+problemMark+msg, max(1, l.fieldWidth()), "…")
	return lipgloss.NewStyle().Foreground(l.base.Focused.ErrorMessage.GetForeground()).Render(note)
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
		l.fitted.shown = nil
	}
	if l.fitted = s; s == nil {
		return 0
	}
	s.set(s.title, s.desc)
	s.shown = nil
	over := lipgloss.Height(s.field.View()) - (height - lipgloss.Height(g.Header()))
	if over <= 0 || s.desc == "" {
		return max(over, 0)
	}
	w := max(l.fieldWidth()-s.theme.Focused.Base.GetHorizontalFrameSize(), 1)
	lines := strings.Split(cellbuf.Wrap(s.desc, w, ",.-; "), "\n")
	keep := len(lines) - over
	s.shown = nil
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
	page, at, ok := l.position(name)
	if !ok && len(l.pages) > 0 {
		page = len(l.pages) - 1
		at = len(l.pages[page]) - 1
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
