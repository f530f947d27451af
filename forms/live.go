package forms

import (
	"reflect"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// BuildOptions tune a live form.
type BuildOptions struct {
	Width    int
	PageSize int        // fields per page (huh group); 0 means DefaultPageSize
	Theme    *huh.Theme // nil means huh.ThemeCharm()
	Editor   bool       // offer ctrl+e in textareas (see EditorInstalled)
}

// DefaultPageSize keeps a keystroke cheap: huh re-renders the whole current
// group on every key (STYLE §8).
const DefaultPageSize = 4

// Live is a huh form bound to a definition. Field values live in heap slots
// that the huh fields reach through accessors, so they outlive copies of a
// value-receiver Bubble Tea model and can be read after every Update.
//
// A page (PageSize fields) is a huh form of one group, built when it is
// shown: the first frame builds and draws four fields, not thirty-two.
// Tab past a page's last field shows the next page; shift+tab on its first
// field shows the previous one, focused on its last field. Only the last
// page completes the form.
type Live struct {
	def       Definition
	slots     []*slot
	pages     [][]*slot  // the asked fields, a page at a time
	page      int        // the page on screen
	form      *huh.Form  // the page on screen
	group     *huh.Group // its one group
	tall      bool       // the page is taller than maxHeight: huh scrolls it
	width     int        // 0: huh's own
	maxHeight int        // 0: none; a taller page scrolls inside it
	themes    themes     // the theme as given and as drawn
	base      *huh.Theme // the theme as drawn now (themes.drawn)
	muted     *huh.Theme // the same with values drawn as suggestions
	unfocused bool       // the screen's focus is elsewhere (SetFocused)
	look      uint64     // counts changes to the themes in place
	drawing   *string    // the form as View last drew it
	dirty     bool       // something changed since
	hold      hold       // keys waiting for a focus move to land
	editor    bool       // textareas offer an external editor
}

// Form is the huh form to embed: the page on screen. Call its Init when
// installing it (huh #421); Update shows the other pages.
//
// What is done to the form through it may change its drawing: View draws
// anew after Form was called.
func (l *Live) Form() *huh.Form {
	l.dirty = true
	return l.form
}

// View draws the form: the page's title, its fields and its key help, as
// Form().View() does. A page that fits is drawn without huh's viewport,
// which measures its height before the fields know their width (a long
// description then hides the fields below it) and pads every line on
// every draw; a taller one scrolls in it. The drawing is kept while
// nothing that shows changed: a screen redrawn for other reasons (a
// message streaming in, the composer's cursor) does not draw it again.
func (l *Live) View() string {
	if l.dirty || l.drawing == nil {
		var v string
		if l.tall || l.form.State != huh.StateNormal {
			v = l.form.View()
		} else {
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

// Definition is the definition the form was built from.
func (l *Live) Definition() Definition { return l.def }

// SetWidth reflows the form; call it on every tea.WindowSizeMsg.
func (l *Live) SetWidth(w int) {
	l.dirty = true
	if w > 0 {
		l.width = w
		l.form.WithWidth(w)
	}
}

// SetMaxHeight bounds the pages' height: a taller page scrolls inside it,
// a shorter one keeps its own height (a fixed height would pad it).
func (l *Live) SetMaxHeight(h int) {
	l.dirty = true
	l.maxHeight = h
	l.fitHeight()
}

func (l *Live) fitHeight() {
	l.tall = l.maxHeight > 0 && lipgloss.Height(l.drawFree()) > l.maxHeight
	if l.tall {
		// huh's height counts the title and the help, not the blank line
		// it draws between the fields and the help.
		l.form.WithHeight(max(l.maxHeight-1, 1))
	}
}

// Build makes a live form. Fields in supplied are not asked. Each asked
// field starts from draft if the draft names it, else from prefill (drawn
// as a suggestion), else empty. draft is what Draft returned earlier.
func Build(def Definition, supplied, prefill, draft Values, opts BuildOptions) *Live {
	l := &Live{def: def, width: opts.Width, editor: opts.Editor}
	l.setThemes(opts.Theme)
	for _, f := range def.Fields {
		if _, known := supplied[f.Name]; known {
			continue
		}
		s := newSlot(l, f)
		if v, ok := draft[f.Name]; ok {
			s.load(v, true)
		} else if v, ok := prefill[f.Name]; ok {
			s.load(v, false)
			s.suggest()
		}
		s.snapshot()
		l.slots = append(l.slots, s)
	}
	size := opts.PageSize
	if size <= 0 {
		size = DefaultPageSize
	}
	for i := 0; i < len(l.slots); i += size {
		l.pages = append(l.pages, l.slots[i:min(i+size, len(l.slots))])
	}
	l.form = l.buildPage(0)
	return l
}

// Values returns the current values of the asked fields that have one,
// typed per field (numbers parsed). Number text that does not parse is
// left out and reported by Problems. Unconfirmed suggestions are included:
// they are what the user sees; Suggested tells them apart.
func (l *Live) Values() Values {
	out := Values{}
	for _, s := range l.slots {
		if v, ok := s.value(); ok {
			out[s.f.Name] = v
		}
	}
	return out
}

// Problems lists number fields whose text does not parse, with paths
// "/values/<name>", so a submit can show them next to Normalize's.
func (l *Live) Problems() []Problem {
	var p problems
	for _, s := range l.slots {
		if msg := s.problem(); msg != "" {
			p.add(ptr("/values", s.f.Name), "%s: %s", s.f.DisplayLabel(), msg)
		}
	}
	return p.result()
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

// RawText returns the raw text of every text-like field (text, textarea,
// number, integer), including number text that does not parse.
func (l *Live) RawText() map[string]string {
	out := map[string]string{}
	for _, s := range l.slots {
		if s.k.typed {
			out[s.f.Name] = s.text
		}
	}
	return out
}

// Draft returns what to save as the draft; Build accepts it back as draft
// and restores exactly what the user saw. Encoding: a field appears once
// the user edited or confirmed it (an empty value included, so a cleared
// prefill stays cleared). text, textarea and select hold a string; number
// and integer hold their raw text as a string ("12a" survives); boolean a
// bool; multiselect a []string. Unconfirmed suggestions are left out so
// they are drawn as suggestions again.
func (l *Live) Draft() Values {
	out := Values{}
	for _, s := range l.slots {
		if !s.touched {
			continue
		}
		if v, ok := s.k.draft(s); ok {
			out[s.f.Name] = v
		}
	}
	return out
}

// Edited reports that the user changed something since the form was drawn:
// a value differs, or a suggestion was confirmed.
func (l *Live) Edited() bool {
	for _, s := range l.slots {
		if s.changed() {
			return true
		}
	}
	return false
}

// Suggested reports that the field still shows an unconfirmed prefill.
func (l *Live) Suggested(name string) bool {
	for _, s := range l.slots {
		if s.f.Name == name {
			return s.suggested
		}
	}
	return false
}

// Update forwards a message to the form. Typing into a field that still
// shows a suggestion replaces the suggestion, as typing over a selected
// default does, instead of appending to it. Keys that follow a tab before
// huh has moved the focus wait for the move (live_hold.go).
//
// Messages that are not the form's — a spinner's tick, the screen's own —
// are ignored without drawing anything anew (see ownMessage).
func (l *Live) Update(msg tea.Msg) tea.Cmd {
	if !ownMessage(msg) {
		return nil
	}
	l.dirty = true
	taken, cmd := l.holding(msg)
	if taken {
		return cmd
	}
	before := l.form.GetFocusedField()
	cmds := []tea.Cmd{cmd, l.update(msg)}
	if k, ok := msg.(tea.KeyMsg); ok && l.movesFocus(k) && l.form.GetFocusedField() == before {
		cmds = append(cmds, l.startHold(before))
	} else {
		cmds = append(cmds, l.landed())
	}
	return tea.Batch(cmds...)
}

func (l *Live) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && (k.Type == tea.KeyRunes || k.Type == tea.KeySpace) {
		if s := l.focusedSlot(); s != nil && s.suggested && s.resync != nil {
			s.quiet = true // clearing is not yet the user's edit
			s.text = ""
			s.resync()
			s.quiet = false
		}
	}
	if cmd, ok := l.turnBack(msg); ok {
		return cmd
	}
	var cmd tea.Cmd
	if s := l.focusedSlot(); s != nil && s.keys != nil {
		if k, ok := msg.(tea.KeyMsg); ok {
			cmd = s.keys(k, func(m tea.Msg) tea.Cmd { _, c := l.form.Update(m); return c })
		} else {
			_, cmd = l.form.Update(msg)
		}
		if s.redraw {
			s.redraw = false
			s.quiet = true
			s.resync()
			s.quiet = false
		}
	} else {
		_, cmd = l.form.Update(msg)
	}
	if l.form.State == huh.StateCompleted && l.page < len(l.pages)-1 {
		return tea.Batch(cmd, l.showPage(l.page+1, 0))
	}
	return cmd
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

// focusedSlot is the slot of the focused field, if it is one of ours.
func (l *Live) focusedSlot() *slot {
	f := l.form.GetFocusedField()
	for _, s := range l.slots {
		if s.field != nil && s.field == f {
			return s
		}
	}
	return nil
}
