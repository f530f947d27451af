package forms

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
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
			g.WithHeight(l.maxHeight)
			l.form.Update(redrawMsg{}) // the group draws its viewport on an update
			v = g.View()
		}
	}
	l.drawing = &v
	return v
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
