package forms

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// buildPage makes page i's form; the first page carries the description.
func (l *Live) buildPage(i int) *huh.Form {
	title := PlainLine(l.def.Title)
	if l.labelIsTitle() {
		title = "" // the one question says it, with its marks
	}
	var g *huh.Group
	l.shown, l.top = nil, 0
	if len(l.pages) == 0 {
		note := huh.NewNote().Title("Nothing left to ask").
			Description("Every required detail is already known.")
		g = huh.NewGroup(note)
	} else {
		fields := make([]huh.Field, 0, len(l.pages[i]))
		for _, s := range l.pages[i] {
			s.quiet = true // huh's Select writes its first option on its own
			f := &paged{Field: s.build(), page: i, pages: len(l.pages), s: s}
			if s.field != nil {
				s.field = f // what the form reports as focused
			}
			s.decorate() // before the group measures itself
			fields = append(fields, f)
			l.shown = append(l.shown, f)
		}
		g = huh.NewGroup(fields...)
		if len(l.pages) > 1 {
			title = joinNonEmpty(" ", title, pageMark(i+1, len(l.pages)), l.unfixed(i))
		}
	}
	g.Title(title)
	if i == 0 && l.def.Description != "" {
		g.Description(Describe(l.def.Description))
	}
	l.group = g
	// huh's help line is off: the screen draws one hint line, with the
	// focused field's own keys (KeyBinds) among its own.
	form := huh.NewForm(g).WithTheme(l.base).WithShowHelp(false).WithShowErrors(true)
	if l.width > 0 {
		form.WithWidth(l.width)
	}
	if len(l.pages) > 0 {
		for _, s := range l.pages[i] {
			s.quiet = false
		}
	}
	return form
}

// unfixed says how many fields of the other pages show a problem, so that
// a page turned past them does not hide them ("· 2 to fix on page 1").
func (l *Live) unfixed(page int) string {
	n, where := 0, []string(nil)
	for p, slots := range l.pages {
		k := 0
		for _, s := range slots {
			if p != page && len(s.problems()) > 0 {
				k++
			}
		}
		if k > 0 {
			n, where = n+k, append(where, strconv.Itoa(p+1))
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("· %d to fix on %s %s", n, Plural(len(where), "page", "pages"), joinAnd(where))
}

// labelIsTitle reports a form of one question whose label repeats the
// form's title ("What should I work on?" twice): it is drawn once.
func (l *Live) labelIsTitle() bool {
	if len(l.slots) != 1 {
		return false
	}
	label, title := strings.TrimSpace(l.slots[0].f.DisplayLabel()), strings.TrimSpace(l.def.Title)
	return title != "" && strings.EqualFold(label, title)
}

// showPage puts page i on screen, focused on its field at.
func (l *Live) showPage(i, at int) tea.Cmd {
	l.dirty = true
	l.page = i
	l.form = l.buildPage(i)
	l.fitHeight()
	cmds := []tea.Cmd{l.form.Init()}
	for range at {
		cmds = append(cmds, l.form.NextField())
	}
	return tea.Batch(cmds...)
}

// Edit shows the page holding the named field, focused on it; with no
// such field, the last field of the last page (where a submit left off).
// It is how the screen comes back to a form it had finished or left: keys
// still held from before (typed in the burst of a submit) are dropped.
func (l *Live) Edit(name string) tea.Cmd {
	l.hold = hold{seq: l.hold.seq + 1} // its pending release is ignored
	return l.showPage(l.place(name))
}

// Resize reflows the form at a new size on the field that had the focus:
// a page's fixed height cannot grow back, so the page is built again.
// Keys held for a focus move stay held: the move reaches the new page.
func (l *Live) Resize(width, maxHeight int) tea.Cmd {
	l.width, l.maxHeight = width, maxHeight
	cmd := l.showPage(l.place(l.Focused()))
	if l.hold.on {
		l.hold.from = l.form.GetFocusedField()
	}
	return cmd
}

// place is the page and the place on it of the named field; with no such
// field, the last field of the last page.
func (l *Live) place(name string) (page, at int) {
	if len(l.pages) == 0 {
		return 0, 0
	}
	page, at = len(l.pages)-1, len(l.pages[len(l.pages)-1])-1
	for p, slots := range l.pages {
		for i, s := range slots {
			if s.f.Name == name {
				page, at = p, i
			}
		}
	}
	return page, at
}

// Focused is the name of the field with the focus ("" when none).
func (l *Live) Focused() string {
	if f := l.form.GetFocusedField(); f != nil {
		return f.GetKey()
	}
	return ""
}

// turnBack shows the previous page, focused on its last field, on
// shift+tab from the first field; it reports whether it took msg.
func (l *Live) turnBack(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || k.Type != tea.KeyShiftTab || l.page == 0 {
		return nil, false
	}
	f := l.form.GetFocusedField()
	if f == nil || f.GetKey() != l.pages[l.page][0].f.Name {
		return nil, false
	}
	return l.showPage(l.page-1, len(l.pages[l.page-1])-1), true
}
