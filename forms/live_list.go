package forms

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

// list is the widget of a select (one choice: the option under the
// cursor) and of a multiselect (any number, toggled). huh's Select, once
// given a height, scrolls its preselected option to the top of its window
// and hides the options above it (huh #679), and neither it nor the
// MultiSelect says that options are hidden; a field squeezed into a short
// form could even show none. list draws a window that always holds the
// cursor and its neighbours, says how many options lie above and below
// it, and fits whatever height the form gives it (live_list_view.go).
// A long list filters with "/" like huh.
type list struct {
	fieldFrame // a height of 0: as tall as the list wants (listWindow rows at most)
	multi      bool
	opts       []huh.Option[string]
	shown      []int // indexes into opts that pass the filter
	cursor     int   // index into shown
	filter     string
	filterOn   bool
	moved      bool // the user moved the cursor or filtered: tab chooses
	keys       listKeys
	title      string
	head       listHead // the head's wrapped lines, kept
}

// listKeys are huh's bindings for a select or a multi-select, in one shape.
type listKeys struct {
	Up, Down, HalfPageUp, HalfPageDown, GotoTop, GotoBottom key.Binding
	Filter, SetFilter, ClearFilter                          key.Binding
	Prev, Next, Submit                                      key.Binding
	Toggle, SelectAll                                       key.Binding // multi-select only
	Clear                                                   key.Binding // an optional select: take the choice back
}

func selectKeys(k huh.SelectKeyMap) listKeys {
	return listKeys{Up: k.Up, Down: k.Down, HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown,
		GotoTop: k.GotoTop, GotoBottom: k.GotoBottom, Filter: k.Filter, SetFilter: k.SetFilter,
		ClearFilter: k.ClearFilter, Prev: k.Prev, Next: k.Next, Submit: k.Submit,
		Toggle: key.NewBinding(key.WithDisabled()), SelectAll: key.NewBinding(key.WithDisabled()),
		Clear: key.NewBinding(key.WithKeys("backspace", "delete"), key.WithHelp("⌫", "clear"))}
}

func multiKeys(k huh.MultiSelectKeyMap) listKeys {
	return listKeys{Up: k.Up, Down: k.Down, HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown,
		GotoTop: k.GotoTop, GotoBottom: k.GotoBottom, Filter: k.Filter, SetFilter: k.SetFilter,
		ClearFilter: k.ClearFilter, Prev: k.Prev, Next: k.Next, Submit: k.Submit,
		Toggle: k.Toggle, SelectAll: k.SelectAll, Clear: key.NewBinding(key.WithDisabled())}
}

func newList(s *slot, multi bool) *list {
	l := &list{fieldFrame: fieldFrame{s: s}, multi: multi, opts: s.options()}
	l.setKeys(huh.NewDefaultKeyMap())
	l.refilter()
	if !multi {
		for i, idx := range l.shown {
			if l.opts[idx].Value == s.text {
				l.cursor = i
			}
		}
	}
	return l
}

// setKeys takes the form's bindings. Filtering is for long lists only: a
// short one is all on screen.
func (l *list) setKeys(k *huh.KeyMap) {
	if l.multi {
		l.keys = multiKeys(k.MultiSelect)
		l.keys.Toggle.SetEnabled(true)
		l.keys.SelectAll.SetEnabled(l.limit() == 0)
	} else {
		l.keys = selectKeys(k.Select)
	}
	l.keys.Filter.SetEnabled(len(l.opts) > longList)
	l.keys.SetFilter.SetEnabled(true)
	l.keys.ClearFilter.SetEnabled(true) // shown only while a filter is set
}

// limit is the most choices a multi-select takes (0: no limit).
func (l *list) limit() int {
	if l.s.f.MaxItems != nil && *l.s.f.MaxItems > 0 {
		return *l.s.f.MaxItems
	}
	return 0
}

func (l *list) refilter() {
	l.shown = l.shown[:0]
	needle := strings.ToLower(l.filter)
	for i, o := range l.opts {
		if needle == "" || strings.Contains(strings.ToLower(o.Key), needle) {
			l.shown = append(l.shown, i)
		}
	}
	l.cursor = min(l.cursor, max(len(l.shown)-1, 0))
}

// current is the option under the cursor, if any passes the filter.
func (l *list) current() (huh.Option[string], bool) {
	if len(l.shown) == 0 {
		return huh.Option[string]{}, false
	}
	return l.opts[l.shown[l.cursor]], true
}

// choose writes the option under the cursor to a select's slot, as huh
// does when the cursor moves.
func (l *list) choose() {
	if o, ok := l.current(); ok && !l.multi {
		textAccess{l.s}.Set(o.Value)
	}
}

func (l *list) picked(value string) bool { return slices.Contains(l.s.picks, value) }

// toggle picks or unpicks the option under the cursor; a pick past the
// limit is refused, as huh refuses it (the hint says the limit).
func (l *list) toggle() {
	o, ok := l.current()
	if !ok {
		return
	}
	if l.picked(o.Value) {
		picksAccess{l.s}.Set(slices.DeleteFunc(slices.Clone(l.s.picks), func(v string) bool { return v == o.Value }))
		return
	}
	if n := l.limit(); n > 0 && len(l.s.picks) >= n {
		return
	}
	picksAccess{l.s}.Set(l.s.ordered(append(slices.Clone(l.s.picks), o.Value)))
}

// pickAll picks every option passing the filter, or, when all are
// picked, unpicks them.
func (l *list) pickAll() {
	all := true
	for _, i := range l.shown {
		all = all && l.picked(l.opts[i].Value)
	}
	var out []string
	for _, v := range l.s.picks {
		if !all || !slices.ContainsFunc(l.shown, func(i int) bool { return l.opts[i].Value == v }) {
			out = append(out, v)
		}
	}
	if !all {
		for _, i := range l.shown {
			out = append(out, l.opts[i].Value)
		}
	}
	picksAccess{l.s}.Set(l.s.ordered(out))
}

func (l *list) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok || !l.focused {
		return l, nil
	}
	if l.filterOn {
		switch {
		case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
			l.filter += pick(k.Type == tea.KeySpace, " ", string(k.Runes))
			l.refilter()
			l.moved = true
			return l, nil
		case k.Type == tea.KeyBackspace:
			if r := []rune(l.filter); len(r) > 0 {
				l.filter = string(r[:len(r)-1])
				l.refilter()
			}
			return l, nil
		case key.Matches(k, l.keys.SetFilter): // a multi-select's enter too: it toggles once set
			l.filterOn = false
			return l, nil
		}
	}
	page := max(l.rows()/2, 1)
	switch {
	case key.Matches(k, l.keys.Filter):
		l.filterOn = true
	case k.Type == tea.KeyEsc && l.filter != "":
		l.clearFilter()
	case key.Matches(k, l.keys.Clear) && !l.s.f.Required:
		textAccess{l.s}.Set("") // an optional choice can be taken back
		l.s.has, l.moved = false, false
	case key.Matches(k, l.keys.Toggle):
		l.toggle()
	case key.Matches(k, l.keys.SelectAll):
		l.pickAll()
	case key.Matches(k, l.keys.Up):
		l.move(-1)
	case key.Matches(k, l.keys.Down):
		l.move(1)
	case key.Matches(k, l.keys.HalfPageUp):
		l.move(-page)
	case key.Matches(k, l.keys.HalfPageDown):
		l.move(page)
	case key.Matches(k, l.keys.GotoTop):
		l.move(-len(l.shown))
	case key.Matches(k, l.keys.GotoBottom):
		l.move(len(l.shown))
	case key.Matches(k, l.keys.Prev):
		l.leave(k)
		return l, huh.PrevField
	case key.Matches(k, l.keys.Next, l.keys.Submit):
		if len(l.shown) == 0 && !l.multi {
			return l, nil
		}
		l.filterOn = false
		l.leave(k)
		return l, huh.NextField
	}
	return l, nil
}

// leave chooses the option under the cursor as the user moves past the
// list, unless the select is optional and untouched: tab past it sends
// nothing, as an untouched text field does; enter chooses.
func (l *list) leave(k tea.KeyMsg) {
	if l.multi || l.s.f.Required || l.s.has || l.moved || k.Type == tea.KeyEnter {
		l.choose()
		l.s.confirmed()
	}
}

func (l *list) move(by int) {
	if len(l.shown) == 0 {
		return
	}
	l.cursor = max(0, min(len(l.shown)-1, l.cursor+by))
	l.moved = true
	l.choose()
}

// clearFilter shows every option again, the cursor still on the one it
// was on.
func (l *list) clearFilter() {
	o, ok := l.current()
	l.filter, l.filterOn = "", false
	l.refilter()
	for i, idx := range l.shown {
		if ok && l.opts[idx] == o {
			l.cursor = i
		}
	}
}

func (l *list) Focus() tea.Cmd { l.focused = true; return nil }

// Blur leaves the list unfiltered: a filter is a way to find an option,
// not what the field shows once the user has moved on.
func (l *list) Blur() tea.Cmd {
	l.focused = false
	l.clearFilter()
	return nil
}

func (l *list) KeyBinds() []key.Binding {
	if l.filterOn {
		return []key.Binding{l.keys.Up, l.keys.Down, l.keys.SetFilter, l.keys.Submit}
	}
	var binds []key.Binding
	if l.multi {
		binds = append(binds, l.keys.Toggle)
	}
	binds = append(binds, l.keys.Up, l.keys.Down, l.keys.Filter)
	if l.filter != "" {
		binds = append(binds, l.keys.ClearFilter)
	}
	if l.multi && l.limit() == 0 {
		binds = append(binds, l.keys.SelectAll)
	}
	if !l.s.f.Required && l.s.has && l.s.text != "" {
		binds = append(binds, l.keys.Clear)
	}
	return append(binds, l.keys.Prev, l.keys.Next, l.keys.Submit)
}

func (l *list) WithTheme(t *huh.Theme) huh.Field { l.keepTheme(t); return l }

func (l *list) WithKeyMap(k *huh.KeyMap) huh.Field {
	if k != nil {
		l.setKeys(k)
	}
	return l
}

func (l *list) WithAccessible(bool) huh.Field { return l }
func (l *list) WithWidth(w int) huh.Field     { l.width = w; return l }
func (l *list) WithHeight(h int) huh.Field    { l.height = h; return l }

func (l *list) WithPosition(p huh.FieldPosition) huh.Field {
	placeKeys(p, &l.keys.Prev, &l.keys.Next, &l.keys.Submit)
	return l
}

func (l *list) GetValue() any {
	if l.multi {
		return slices.Clone(l.s.picks)
	}
	return l.s.text
}
