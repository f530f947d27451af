package forms

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"
)

// paged is a field on one page of several: huh, seeing a form of one
// group, would take the page's first and last fields for the form's,
// offering no way back and "submit" where the next page follows.
//
// It also keeps the field's drawing: huh draws every field of the page on
// every message, and only the focused one can change by itself (a cursor,
// a list's position). A field without the focus is drawn again only when
// what it shows changed: its slot (value, title, hint, theme), the form's
// look (SetFocused) or its width.
type paged struct {
	huh.Field
	page, pages int
	s           *slot
	focused     bool
	w           int // the width last given
	view        string
	drawn       drawing // what view was drawn from; zero: nothing yet
}

// drawing is what a field's view depends on while it has no focus.
type drawing struct {
	version, look uint64
	width         int
}

func (p *paged) View() string {
	now := drawing{p.s.version, p.s.live.look, p.w}
	if p.focused || p.drawn != now || p.view == "" {
		p.view = fitLines(p.Field.View(), p.w)
		p.drawn = now
	}
	return p.view
}

// fitLines cuts lines wider than width: huh's fields pad to their width
// and then add their border, leaving it to huh's viewport to cut the cell
// too many; a page drawn without the viewport (Live.View) cuts it here,
// once per change of the field.
func fitLines(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if ansi.StringWidth(line) > width {
			lines[i] = ansi.Truncate(line, width, "")
		}
	}
	return strings.Join(lines, "\n")
}

func (p *paged) Focus() tea.Cmd {
	p.focused = true
	return p.Field.Focus()
}

func (p *paged) Blur() tea.Cmd {
	p.focused = false
	cmd := p.Field.Blur()
	p.drawn = drawing{} // leaving the field changes how it looks
	return cmd
}

func (p *paged) WithPosition(pos huh.FieldPosition) huh.Field {
	pos.Group, pos.FirstGroup, pos.LastGroup = p.page, 0, p.pages-1
	p.Field = p.Field.WithPosition(pos)
	return p
}

func (p *paged) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.Field.Update(msg)
	p.Field = m.(huh.Field)
	return p, cmd
}

func (p *paged) WithTheme(t *huh.Theme) huh.Field {
	p.Field = p.Field.WithTheme(t)
	p.drawn = drawing{}
	return p
}

func (p *paged) WithKeyMap(k *huh.KeyMap) huh.Field {
	p.Field = p.Field.WithKeyMap(k)
	return p
}

func (p *paged) WithWidth(w int) huh.Field {
	p.Field = p.Field.WithWidth(w)
	p.w, p.drawn = w, drawing{}
	return p
}

func (p *paged) WithHeight(h int) huh.Field {
	p.Field = p.Field.WithHeight(h)
	p.drawn = drawing{}
	return p
}

func (p *paged) WithAccessible(a bool) huh.Field {
	p.Field = p.Field.WithAccessible(a)
	return p
}
