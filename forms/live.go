package forms

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
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
	tall      bool       // the page is taller than maxHeight: it shows a window (live_window.go)
	shown     []*paged   // the page's fields, in order
	top       int        // a tall page: its first content line in view
	width     int        // 0: huh's own
	maxHeight int        // 0: none; a taller page scrolls inside it
	grown     bool       // a field's head changed its lines since the page was fitted to maxHeight
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

// Init focuses the page on screen: call it whenever the form is installed
// (an embedded huh form has no focused field until it is, huh #421).
func (l *Live) Init() tea.Cmd {
	l.dirty = true
	return l.form.Init()
}

// Submitted reports that the user moved past the last field of the last
// page: the answer is ready for review.
func (l *Live) Submitted() bool { return l.form.State == huh.StateCompleted }

// Aborted reports that the form was quit (huh's quit key): the screen
// builds it again from its draft.
func (l *Live) Aborted() bool { return l.form.State == huh.StateAborted }

// Definition is the definition the form was built from.
func (l *Live) Definition() Definition { return l.def }

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
