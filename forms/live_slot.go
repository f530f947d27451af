package forms

import (
	tea "github.com/charmbracelet/bubbletea"
	"slices"

	"github.com/charmbracelet/huh"
)

// slot is the heap state of one asked field. huh reads and writes it
// through accessors; the accessors double as edit hooks. What the state
// means for a field type is its kind's business (kinds.go).
type slot struct {
	live *Live
	f    Field
	k    *kind

	text  string   // text, textarea, number/integer text, select value
	on    bool     // boolean
	picks []string // multiselect, in option order
	has   bool     // boolean and select: a value was chosen or drawn

	quiet     bool // while building: huh's Select writes its first option on its own
	suggested bool // drawn from prefill and not yet edited or confirmed
	touched   bool // edited or confirmed since drawn (or loaded from a draft)

	flagged string   // the field's own problem, found when the user left it
	told    []string // problems the screen set (SetProblems), until an edit

	drawn struct {
		text      string
		on, has   bool
		picks     []string
		suggested bool
	}

	field  huh.Field // the huh field that edits it
	resync func()    // typed fields: draw the widget anew from s.text
	set    func(title, description string)
	key    func(k tea.KeyMsg, forward func(tea.Msg) tea.Cmd) tea.Cmd // the widget's own key handling (nil: forward)
	shown  *string                                                   // the field as last drawn, until something it shows changes (field)
	keys   *huh.KeyMap                                               // the field's own keymap, when not the form's
	yesNo  bool                                                      // marks no choice until one is made (restyle)
	area   DrawnText                                                 // typed fields: the text as clusters, raw and drawn
	typed  string                                                    // the text of the key being typed, as typed
	redraw bool                                                      // the widget holds text to draw anew

	theme *huh.Theme // the field's own theme (restyle)
	title string     // last title and description set, to skip redundant work
	desc  string

	aboutText *string // the description as drawn, once worked out
}

// newSlot makes the slot of a field. A type forms does not know (a
// definition that never passed ParseDeclaration) is edited as text rather
// than refused at draw time.
func newSlot(l *Live, f Field) *slot {
	k := kindOf(f.Type)
	if k == nil {
		k = textKind
	}
	return &slot{live: l, f: f, k: k, theme: &huh.Theme{}, resync: func() {}}
}

// load draws a value from a draft (fromDraft) or a prefill. Drafts keep
// number text as strings; prefill numbers are float64/int64/json.Number.
func (s *slot) load(v any, fromDraft bool) {
	s.touched = fromDraft
	s.k.load(s, v)
}

// value is the typed current value, if any.
func (s *slot) value() (any, bool) { return s.k.value(s) }

// problem says what is wrong with the text typed so far that no value can
// be read from ("" if fine): shown at once, as the user types.
func (s *slot) problem() string {
	if s.k.problem == nil {
		return ""
	}
	return s.k.problem(s)
}

// check is the field's own problem: unreadable text, a required field
// left empty, else what its kind's answer rules say of the value shown
// ("" if fine).
func (s *slot) check() string {
	if msg := s.problem(); msg != "" {
		return msg
	}
	v, ok := s.k.value(s)
	if !ok || !answered(s.f, v) {
		if s.f.Required {
			return missingWords
		}
		return ""
	}
	var p problems
	s.k.normalize(&p, s.f, v, "")
	if len(p.list) > 0 {
		return p.list[0].Message
	}
	return ""
}

// problems are what is drawn under the field, one a line: text that
// cannot be read at once; the field's own problem once the user has left
// it (re-checked on each edit after that, so a fix clears it at once);
// else what the screen said of it.
func (s *slot) problems() []string {
	if msg := s.problem(); msg != "" {
		return []string{msg}
	}
	if s.flagged != "" {
		return []string{s.flagged}
	}
	return s.told
}

func (s *slot) snapshot() {
	s.drawn.text, s.drawn.on, s.drawn.has = s.text, s.on, s.has
	s.drawn.picks = slices.Clone(s.picks)
	s.drawn.suggested = s.suggested
}

func (s *slot) changed() bool {
	return s.text != s.drawn.text || s.on != s.drawn.on || s.has != s.drawn.has ||
		!slices.Equal(s.picks, s.drawn.picks) || (s.drawn.suggested && !s.suggested)
}

// missingWords mark a required field the user left empty.
const missingWords = "required: still empty"

// edited runs when huh writes a different value: the user changed it.
func (s *slot) edited() {
	s.touched = true
	s.suggested = false
	s.told = nil
	if s.flagged != "" {
		s.flagged = s.check()
	}
	s.decorate()
}

// confirmed runs when huh validates the field, which it does when the user
// moves past it (enter, tab, shift+tab): the shown value becomes the user's.
//
// Leaving a field checks it: its problem shows beside it, and leaving is
// never blocked (huh #655, #720).
func (s *slot) confirmed() {
	if s.live.jumping {
		return
	}
	if s.k.chooses {
		s.has = true
	}
	if rfc, ok := localDateTime(s.text); ok && s.f.Format == "date-time" {
		textAccess{s}.Set(rfc) // shown back with its offset before the review
		s.resync()
	}
	flagged := s.check()
	if !s.touched || s.suggested || flagged != s.flagged {
		s.touched = true
		s.suggested = false
		s.flagged = flagged
		s.decorate()
	}
}

// Accessors: huh calls Set on every update, so Set compares first.

type textAccess struct{ s *slot }

func (a textAccess) Get() string { return a.s.text }
func (a textAccess) Set(v string) {
	if v != a.s.text && !a.s.quiet && !a.s.live.jumping {
		a.s.text = v
		if a.s.k.chooses {
			a.s.has = true
		}
		a.s.edited()
		a.s.live.noteTexts()
	}
}

type boolAccess struct{ s *slot }

func (a boolAccess) Get() bool { return a.s.on }
func (a boolAccess) Set(v bool) {
	if (v != a.s.on || !a.s.has) && !a.s.quiet && !a.s.live.jumping {
		a.s.on, a.s.has = v, true
		a.s.edited()
	}
}

type picksAccess struct{ s *slot }

func (a picksAccess) Get() []string { return a.s.picks }
func (a picksAccess) Set(v []string) {
	if !slices.Equal(v, a.s.picks) && !a.s.quiet && !a.s.live.jumping {
		a.s.picks = slices.Clone(v)
		a.s.edited()
	}
}
