package forms

import (
	"reflect"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// What the screen draws of a form and what it tells the form to draw:
// the page, problems beside their fields, and which messages are the
// form's at all.

// View draws the form: the page's title and its fields (the keys are the
// screen's to draw, from KeyBinds), as
// Form().View() does. A page is drawn without huh's viewport, which
// measures its height before the fields know their width (a long
// description then hides the fields below it), pads every line on every
// draw and puts the focused field at the top, hiding the one just left; a
// taller page shows a window of its fields (live_window.go). The drawing is kept while
// nothing that shows changed: a screen redrawn for other reasons (a
// message streaming in, the composer's cursor) does not draw it again.
//
// A page where a field's title and description now take more or fewer
// lines than when it was fitted to its height (a problem found as the
// user left the field, its guidance back as they edit it) is fitted
// again first, whichever path changed them: huh
// gives a field a height only when it is taller than its room at the
// moment the height is set, so a head grown later would push the field's
// input out of view, or the page past its height.
func (l *Live) View() string {
	if l.grown {
		l.fitHeight()
		l.dirty = true
	}
	if l.dirty || l.drawing == nil {
		var v string
		switch {
		case l.form.State != huh.StateNormal:
			v = l.form.View()
		case l.tall:
			v = l.drawTall()
		default:
			v = l.drawFree()
		}
		l.drawing, l.dirty = &v, false
	}
	return *l.drawing
}

// drawFree draws the page whole, as huh's group does less its viewport.
func (l *Live) drawFree() string {
	var parts []string
	if h := l.group.Header(); h != "" {
		parts = append(parts, h)
	}
	parts = append(parts, l.group.Content())
	if f := l.group.Footer(); f != "" {
		parts = append(parts, "", f)
	}
	last := len(parts) - 1
	parts[last] = strings.TrimSuffix(parts[last], " ")
	return strings.Join(parts, "\n")
}

// SetMaxHeight bounds the pages' height: a taller page scrolls inside it,
// a shorter one keeps its own height (a fixed height would pad it).
func (l *Live) SetMaxHeight(h int) {
	l.dirty = true
	l.maxHeight = h
	l.fitHeight()
}

func (l *Live) fitHeight() {
	l.grown = false
	l.tall = l.maxHeight > 0 && lipgloss.Height(l.drawFree()) > l.maxHeight
	if l.tall {
		// huh's height counts the title and the footer (errors; its help
		// is off), not the blank line it draws above a footer.
		h := l.maxHeight
		if l.group.Footer() != "" {
			h--
		}
		l.form.WithHeight(max(h, 1))
		// huh's group draws its viewport from the fields only on an
		// update: without one the page would show the fields as they were
		// drawn before they knew their height (a list cut under its cursor).
		l.group.Update(relayout{})
	}
}

// relayout is the message that makes huh's group draw its fields again.
type relayout struct{}

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
	l.redraw()
	return rest
}

// redrawMsg makes huh draw the page anew: a group draws its fields only
// when it updates, and keeps that drawing until the next update.
type redrawMsg struct{}

func (l *Live) redraw() {
	l.dirty = true
	l.form.Update(redrawMsg{})
}

// slotAt is the asked field a "/values/<name>…" JSON Pointer names.
func (l *Live) slotAt(path string) *slot {
	rest, ok := strings.CutPrefix(path, "/values/")
	if !ok {
		return nil
	}
	name, _, _ := strings.Cut(rest, "/")
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	for _, s := range l.slots {
		if s.f.Name == name {
			return s
		}
	}
	return nil
}

// ownPackages are where the messages a form acts on come from: keys and
// sizes, huh's own, the cursors and inputs of the widgets huh builds on,
// and this package's (holds, pastes, redraws).
var ownPackages = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/huh",
	"github.com/charmbracelet/bubbles/cursor",
	"github.com/charmbracelet/bubbles/textarea",
	"github.com/charmbracelet/bubbles/textinput",
	"github.com/charmbracelet/bubbles/viewport",
	"followup/forms",
}

// ownMessage reports a message the form may act on. Anything else (a
// screen forwards every message it gets) would only cost a redraw of the
// form: huh updates every field on every message.
func ownMessage(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pkg := t.PkgPath()
	for _, own := range ownPackages {
		if pkg == own || strings.HasPrefix(pkg, own+"/") {
			return true
		}
	}
	return false
}
