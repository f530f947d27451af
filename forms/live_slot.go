package forms

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/huh"
)

// slot is the heap state of one asked field. huh reads and writes it
// through accessors; the accessors double as edit hooks.
type slot struct {
	live *Live
	f    Field

	text  string   // text, textarea, number/integer text, select value
	on    bool     // boolean
	picks []string // multiselect, in option order
	has   bool     // boolean and select: a value was chosen or drawn

	quiet     bool // while building: huh's Select writes its first option on its own
	suggested bool // drawn from prefill and not yet edited or confirmed
	touched   bool // edited or confirmed since drawn (or loaded from a draft)

	drawn struct {
		text      string
		on, has   bool
		picks     []string
		suggested bool
	}

	field  huh.Field // text-like fields: the huh field, to find the focused slot
	resync func()    // text-like fields: redraw the field from s.text

	theme    *huh.Theme // the form's theme, or this field's own while it may show a suggestion
	muted    bool       // the own theme draws values as a suggestion
	setTitle func(string)
	setDesc  func(string)
	title    string // last title set, to skip redundant work
	desc     string
}

func newSlot(l *Live, f Field) *slot {
	return &slot{live: l, f: f, theme: l.base, quiet: true}
}

// suggest marks the value loaded as a suggestion. Only such a field gets a
// theme of its own (a theme is a large value), swapped in place when the
// user takes the suggestion over.
func (s *slot) suggest() {
	s.suggested = s.hasValue()
	if s.suggested {
		own := *s.live.muted
		s.theme, s.muted = &own, true
	}
}

func (s *slot) textLike() bool {
	switch s.f.Type {
	case Text, Textarea, Number, Integer:
		return true
	}
	return false
}

// load draws a value from a draft (fromDraft) or a prefill. Drafts keep
// number text as strings; prefill numbers are float64/int64/json.Number.
func (s *slot) load(v any, fromDraft bool) {
	s.touched = fromDraft
	switch s.f.Type {
	case Boolean:
		s.on, s.has = v.(bool)
	case Multiselect:
		s.picks = s.ordered(v)
	case Number, Integer:
		s.text = numberText(v)
	case Text, Textarea:
		str, _ := v.(string)
		s.text = widgetText(str, s.f.Type == Textarea)
	default:
		s.text, _ = v.(string)
		s.has = s.text != "" && s.f.hasOption(s.text)
	}
}

// widgetText is text as the bubbles input widgets will hold it (they drop
// controls and expand tabs and line breaks). Loading it in that form keeps
// the widget's first write-back from looking like an edit.
func widgetText(s string, multiline bool) string {
	if multiline {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n':
			b.WriteString(pick(multiline, "\n", " "))
		case r == '\t':
			b.WriteString(pick(multiline, "    ", " "))
		case r == utf8.RuneError || unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ordered keeps known option values in option order.
func (s *slot) ordered(v any) []string {
	var in []string
	switch l := v.(type) {
	case []string:
		in = l
	case []any:
		for _, e := range l {
			if str, ok := e.(string); ok {
				in = append(in, str)
			}
		}
	}
	out := []string{}
	for _, o := range s.f.Options {
		if slices.Contains(in, o.Value) {
			out = append(out, o.Value)
		}
	}
	return out
}

func numberText(v any) string {
	switch n := v.(type) {
	case string:
		return n
	case json.Number:
		return string(n)
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(n, 10)
	case int:
		return strconv.Itoa(n)
	}
	return ""
}

func (s *slot) hasValue() bool {
	switch s.f.Type {
	case Boolean:
		return s.has
	case Multiselect:
		return len(s.picks) > 0
	case Select:
		return s.has
	}
	return s.text != ""
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

// value is the typed current value, if any.
func (s *slot) value() (any, bool) {
	switch s.f.Type {
	case Boolean:
		return s.on, s.has
	case Multiselect:
		return slices.Clone(s.picks), len(s.picks) > 0
	case Number, Integer:
		return parseNumber(s.text, s.f.Type == Integer)
	case Select:
		return s.text, s.has && s.text != ""
	}
	return s.text, s.text != ""
}

// decimalRE is the number syntax a person may type; strconv alone would
// also take hex floats, "Inf" and underscores.
var decimalRE = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// parseNumber reads what a person types: surrounding spaces are ignored.
func parseNumber(text string, integer bool) (any, bool) {
	t := strings.TrimSpace(text)
	if !decimalRE.MatchString(t) {
		return nil, false
	}
	if integer {
		if i, err := strconv.ParseInt(t, 10, 64); err == nil {
			return i, true
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
			return nil, false
		}
		return int64(f), true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	return f, true
}

// numberProblem explains number text that does not parse ("" if fine).
func (s *slot) numberProblem() string {
	if s.f.Type != Number && s.f.Type != Integer || strings.TrimSpace(s.text) == "" {
		return ""
	}
	if _, ok := parseNumber(s.text, s.f.Type == Integer); ok {
		return ""
	}
	if s.f.Type == Integer {
		return "“" + clip(SanitizeLine(s.text)) + "” is not a whole number"
	}
	return "“" + clip(SanitizeLine(s.text)) + "” is not a number"
}

// edited runs when huh writes a different value: the user changed it.
func (s *slot) edited() {
	s.touched = true
	s.suggested = false
	s.decorate()
}

// confirmed runs when huh validates the field, which it does when the user
// moves past it (enter, tab, shift+tab): the shown value becomes the user's.
func (s *slot) confirmed() {
	if s.f.Type == Boolean || s.f.Type == Select {
		s.has = true
	}
	if !s.touched || s.suggested {
		s.touched = true
		s.suggested = false
		s.decorate()
	}
}

// Accessors: huh calls Set on every update, so Set compares first.

type textAccess struct{ s *slot }

func (a textAccess) Get() string { return a.s.text }
func (a textAccess) Set(v string) {
	if v != a.s.text && !a.s.quiet {
		a.s.text = v
		if a.s.f.Type == Select {
			a.s.has = true
		}
		a.s.edited()
	}
}

type boolAccess struct{ s *slot }

func (a boolAccess) Get() bool { return a.s.on }
func (a boolAccess) Set(v bool) {
	if (v != a.s.on || !a.s.has) && !a.s.quiet {
		a.s.on, a.s.has = v, true
		a.s.edited()
	}
}

type picksAccess struct{ s *slot }

func (a picksAccess) Get() []string { return a.s.picks }
func (a picksAccess) Set(v []string) {
	if !slices.Equal(v, a.s.picks) && !a.s.quiet {
		a.s.picks = slices.Clone(v)
		a.s.edited()
	}
}
