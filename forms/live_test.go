package forms

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"followup/forms/cmdtest"
)

func TestMain(m *testing.M) {
	// Goldens and assertions read plain text: pin the colour profile.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// pump delivers msg to the form and then the messages its commands yield,
// the way a Bubble Tea program would. Timers (cursor blink) are left out.
func pump(f *huh.Form, msg tea.Msg) {
	queue := []tea.Msg{msg}
	for n := 0; len(queue) > 0 && n < 100; n++ {
		m := queue[0]
		queue = queue[1:]
		if cmds := cmdtest.Unwrap(m); cmds != nil {
			for _, c := range cmds {
				queue = append(queue, cmdtest.Run(c)...)
			}
			continue
		}
		_, cmd := f.Update(m)
		queue = append(queue, cmdtest.Run(cmd)...)
	}
}

func press(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }
func typed(s string) tea.KeyMsg      { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func start(def Definition, supplied, prefill, draft Values) *Live {
	l := Build(def, supplied, prefill, draft, BuildOptions{Width: 60})
	pump(l.form, l.form.Init())
	return l
}

func TestLivePrefillIsASuggestionUntilConfirmed(t *testing.T) {
	l := start(travelDef, nil, Values{"destination": "Shanghai", "travelers": int64(2)}, nil)
	if !l.slot("destination").suggested || !strings.Contains(l.View(), "Destination * · suggested") {
		t.Fatalf("prefill not drawn as a suggestion:\n%s", l.View())
	}
	if l.Edited() || len(l.Draft()) != 0 {
		t.Fatalf("nothing done yet, but edited=%v draft=%v", l.Edited(), l.Draft())
	}
	keys(l, press(tea.KeyEnter)) // confirm by moving past
	if l.slot("destination").suggested || !l.Edited() {
		t.Fatal("enter did not confirm the suggestion")
	}
	if got := l.Draft(); !reflect.DeepEqual(got, Values{"destination": "Shanghai"}) {
		t.Fatalf("draft %v", got)
	}
	if !l.slot("travelers").suggested {
		t.Fatal("a field not yet reached lost its suggestion")
	}
	if v := l.Values(); v["travelers"] != int64(2) || v["destination"] != "Shanghai" {
		t.Fatalf("values %v", v)
	}
}

func TestLiveEditingClearsSuggestion(t *testing.T) {
	l := start(travelDef, nil, Values{"destination": "Shanghai"}, nil)
	keys(l, press(tea.KeyBackspace))
	if l.slot("destination").suggested || !l.Edited() || l.Values()["destination"] != "Shangha" {
		t.Fatalf("suggested=%v edited=%v values=%v", l.slot("destination").suggested, l.Edited(), l.Values())
	}
}

func TestLiveDraftKeepsHalfTypedNumbers(t *testing.T) {
	def := Definition{Fields: []Field{{Name: "n", Type: Integer, Label: "Count", Required: true}, {Name: "x", Type: Number}}}
	l := start(def, nil, nil, nil)
	keys(l, typed("12a"))
	if _, ok := l.Values()["n"]; ok {
		t.Fatalf("unparsable number leaked into values: %v", l.Values())
	}
	if p := l.Problems(); len(p) != 1 || p[0].Path != "/values/n" {
		t.Fatalf("problems %v", p)
	}
	if !strings.Contains(l.View(), "is not a whole number") {
		t.Fatalf("no live hint:\n%s", l.View())
	}
	draft := l.Draft()
	if draft["n"] != "12a" || l.RawText()["n"] != "12a" {
		t.Fatalf("draft %v raw %v", draft, l.RawText())
	}
	// What the store does: a JSON round trip.
	raw := CanonicalJSON(draft)
	back, _ := ParseValues(raw, "")
	again := start(def, nil, nil, Values(back))
	if again.RawText()["n"] != "12a" || !strings.Contains(again.View(), "12a") {
		t.Fatalf("draft not restored: %v\n%s", again.RawText(), again.View())
	}
	if again.Edited() {
		t.Fatal("a restored draft counts as edited before any key")
	}
}

func TestLivePrecedenceAndSupplied(t *testing.T) {
	l := start(travelDef, Values{"travelers": int64(3)}, Values{"destination": "Shanghai", "budget": 10.0},
		Values{"destination": "", "budget": "99.5"})
	if l.slot("destination").suggested || l.slot("budget").suggested {
		t.Fatal("draft values drawn as suggestions")
	}
	v := l.Values()
	if _, has := v["destination"]; has || v["budget"] != 99.5 {
		t.Fatalf("values %v", v)
	}
	if _, has := v["travelers"]; has || strings.Contains(l.View(), "Travelers") {
		t.Fatal("a supplied field was asked")
	}
	if !reflect.DeepEqual(l.Draft(), Values{"destination": "", "budget": "99.5"}) {
		t.Fatalf("draft %v", l.Draft())
	}
}

func TestLiveSelectAndMultiselect(t *testing.T) {
	def := Definition{Fields: []Field{
		{Name: "t", Type: Select, Label: "Transport", Options: []Option{{Value: "train"}, {Value: "plane"}, {Value: "car"}}},
		{Name: "m", Type: Multiselect, Label: "Pick", MaxItems: ip(2), Options: []Option{{Value: "a"}, {Value: "b"}, {Value: "c"}}},
	}}
	l := start(def, nil, Values{"t": "car"}, nil)
	view := l.View()
	for _, o := range []string{"train", "plane", "car"} {
		if !strings.Contains(view, o) {
			t.Fatalf("option %q hidden by the preselection:\n%s", o, view)
		}
	}
	keys(l, press(tea.KeyUp))
	if l.Values()["t"] != "plane" || l.slot("t").suggested {
		t.Fatalf("values %v", l.Values())
	}
	keys(l, press(tea.KeyEnter))
	keys(l, typed("x"))
	if got := l.Values()["m"]; !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("multiselect %v", got)
	}
	if !strings.Contains(l.View(), "1 of at most 2 selected") {
		t.Fatalf("no count hint:\n%s", l.View())
	}
}

func TestLivePagesAndNothingToAsk(t *testing.T) {
	def := Definition{Title: "Big"}
	for i := 0; i < MaxFields; i++ {
		def.Fields = append(def.Fields, Field{Name: "f" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Type: Text})
	}
	l := start(def, nil, nil, nil)
	if !strings.Contains(l.View(), "(1/8)") {
		t.Fatalf("no page mark:\n%s", l.View())
	}
	none := start(travelDef, Values{"destination": "x", "start": "x", "travelers": int64(1), "budget": 1.0,
		"transport": "car", "interests": []string{"food"}, "notes": "n", "ok": true}, nil, nil)
	if !strings.Contains(none.View(), "Nothing left to ask") {
		t.Fatalf("view:\n%s", none.View())
	}
}

func TestLiveSanitisesUntrustedText(t *testing.T) {
	def := Definition{Title: "T\x1b]0;pwn\x07", Fields: []Field{{Name: "a", Type: Select, Label: "L\x1b[2J",
		Description: "d\x1b[31m", Options: []Option{{Value: "v", Label: "o\u202e"}}}}}
	view := start(def, nil, nil, nil).View()
	if strings.ContainsAny(view, "\x1b\x07\u202e") {
		t.Fatalf("raw control reached the view: %q", view)
	}
}

func TestLiveLongSelectFiltersAndChooses(t *testing.T) {
	f := Field{Name: "n", Type: Select, Label: "Number", Required: true}
	for i := 0; i < 30; i++ {
		v := "opt" + string(rune('a'+i%26)) + string(rune('0'+i/26))
		f.Options = append(f.Options, Option{Value: v})
	}
	def := Definition{Fields: []Field{f, {Name: "after", Type: Text}}}
	l := start(def, nil, Values{"n": "optz0"}, nil)
	view := l.View()
	if !strings.Contains(view, "> optz0") || !strings.Contains(view, "optd1") { // huh #679: the options above are hidden
		t.Fatalf("preselection not shown:\n%s", view)
	}
	keys(l, press(tea.KeyDown))
	if l.Values()["n"] != "opta1" || l.slot("n").suggested {
		t.Fatalf("values %v", l.Values())
	}
	keys(l, typed("/"))
	keys(l, typed("c1"))
	if v := l.View(); !strings.Contains(v, "/c1") || !strings.Contains(v, "> optc1") || strings.Contains(v, "optz0") {
		t.Fatalf("filter view:\n%s", v)
	}
	keys(l, press(tea.KeyEnter))
	if l.Values()["n"] != "optc1" {
		t.Fatalf("values %v", l.Values())
	}
	if fv := l.form.GetFocusedField(); fv.GetKey() != "after" {
		t.Fatalf("focus did not move on: %s", fv.GetKey())
	}
}

func TestLiveWidgetNormalisationIsNotAnEdit(t *testing.T) {
	def := Definition{Fields: []Field{{Name: "notes", Type: Textarea}, {Name: "t", Type: Text}}}
	l := start(def, nil, Values{"notes": "a\r\nb\tc", "t": "x\ty"}, nil)
	keys(l, tea.WindowSizeMsg{Width: 80, Height: 40})
	if l.Edited() || !l.slot("notes").suggested || !l.slot("t").suggested {
		t.Fatalf("edited=%v values=%q", l.Edited(), l.Values())
	}
}

func TestParseNumberText(t *testing.T) {
	cases := []struct {
		in      string
		integer bool
		want    any
	}{
		{"12", true, int64(12)}, {" 12 ", true, int64(12)}, {"1e3", true, int64(1000)}, {"12.0", true, int64(12)},
		{"-3", true, int64(-3)}, {"12.5", false, 12.5}, {".5", false, 0.5}, {"5.", false, 5.0}, {"-1e-2", false, -0.01},
		{"12a", true, nil}, {"12.5", true, nil}, {"0x10", false, nil}, {"0x1p4", false, nil}, {"Inf", false, nil},
		{"NaN", false, nil}, {"1_000", false, nil}, {"1,5", false, nil}, {"", false, nil}, {"1e400", false, nil},
		{"1e30", true, nil},
	}
	for _, tc := range cases {
		got, ok := parseNumber(tc.in, tc.integer)
		if tc.want == nil && ok || tc.want != nil && got != tc.want {
			t.Errorf("parseNumber(%q, %v) = %v, %v; want %v", tc.in, tc.integer, got, ok, tc.want)
		}
	}
}

// Keys read in the same burst as a tab (pasted text, fast typing) reach
// the field the tab moves to, not the one it leaves; with nowhere to move,
// they are not lost.
func TestKeysAfterTabLandOnTheNextField(t *testing.T) {
	def := Definition{Title: "t", Fields: []Field{{Name: "a", Type: Text}, {Name: "b", Type: Text}}}
	l := start(def, nil, nil, nil)
	// One read: "x", tab, "yz" — huh's focus move comes back after them.
	var pending []tea.Cmd
	for _, k := range []tea.KeyMsg{typed("x"), press(tea.KeyTab), typed("y"), typed("z")} {
		pending = append(pending, l.Update(k))
	}
	pumpLive(l, pending)
	if v := l.Values(); v["a"] != "x" || v["b"] != "yz" {
		t.Fatalf("values %v, want a=x b=yz", v)
	}
	// Shift+tab on the first field moves nowhere: the keys still arrive.
	l = start(def, nil, nil, nil)
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyShiftTab)), l.Update(typed("q"))})
	if v := l.Values(); v["a"] != "q" {
		t.Fatalf("values %v, want a=q", v)
	}
}

// pumpLive runs commands and feeds their messages back through l, as the
// program would, until nothing is left. Timers are left out; a hold that
// no focus move ended gets its own release, as when its time comes.
func pumpLive(l *Live, cmds []tea.Cmd) {
	queue := cmds
	for n := 0; n < 200 && len(queue) > 0; n++ {
		c := queue[0]
		queue = queue[1:]
		for _, m := range cmdtest.Run(c) {
			queue = append(queue, l.Update(m))
		}
	}
}

// Keys read in the same burst as the enter that submits the form are not
// typed into it afterwards: the answer under review stays as it was.
func TestKeysAfterSubmitAreNotReplayed(t *testing.T) {
	def := Definition{Title: "t", Fields: []Field{{Name: "a", Type: Text}}}
	l := start(def, nil, nil, nil)
	pumpLive(l, []tea.Cmd{l.Update(typed("x"))})
	pumpLive(l, []tea.Cmd{l.Update(press(tea.KeyEnter)), l.Update(typed("yz"))})
	if l.form.State != huh.StateCompleted {
		t.Fatalf("form state %v, want completed", l.form.State)
	}
	if v := l.Values(); v["a"] != "x" {
		t.Fatalf("values %v, want a=x", v)
	}
}

// A long form shows a page at a time, each built when shown: tab past a
// page's last field shows the next page, shift+tab on a page's first field
// goes back to the previous page's last field, values typed anywhere stay,
// and only the last page submits.
func TestLivePagesTurnBothWays(t *testing.T) {
	l := start(travelDef, Values{"ok": true}, nil, nil)
	keys := func(ks ...tea.KeyMsg) {
		for _, k := range ks {
			pumpLive(l, []tea.Cmd{l.Update(k)})
		}
	}
	focused := func() string { return l.form.GetFocusedField().GetKey() }
	keys(typed("Oslo"), press(tea.KeyTab), press(tea.KeyTab), press(tea.KeyTab))
	if focused() != "budget" {
		t.Fatalf("focus %s, want budget", focused())
	}
	keys(typed("12"), press(tea.KeyTab))
	if v := l.View(); focused() != "transport" || !strings.Contains(v, "(2/2)") {
		t.Fatalf("focus %s after the page's last field:\n%s", focused(), v)
	}
	if l.form.State != huh.StateNormal {
		t.Fatalf("a page completed the form: %v", l.form.State)
	}
	keys(press(tea.KeyShiftTab))
	if v := l.View(); focused() != "budget" || !strings.Contains(v, "(1/2)") || !strings.Contains(v, "Oslo") {
		t.Fatalf("shift+tab from page 2 focused %s:\n%s", focused(), v)
	}
	keys(typed("5"), press(tea.KeyTab), press(tea.KeyDown), press(tea.KeyTab), press(tea.KeyTab))
	if focused() != "notes" {
		t.Fatalf("focus %s, want notes", focused())
	}
	keys(typed("window"), press(tea.KeyEnter))
	if l.form.State != huh.StateCompleted {
		t.Fatalf("the last page did not submit: %v", l.form.State)
	}
	want := Values{"destination": "Oslo", "budget": 125.0, "transport": "plane", "notes": "window"}
	if got := l.Values(); !reflect.DeepEqual(got, want) {
		t.Fatalf("values %v, want %v", got, want)
	}
}

// Edit comes back to a form on the named field's page, focused on it, or
// on the last field when there is no such field; the values stay.
func TestLiveEditLandsOnTheField(t *testing.T) {
	l := start(travelDef, Values{"ok": true}, nil, Values{"destination": "Oslo"})
	pumpLive(l, []tea.Cmd{l.Edit("interests")})
	if v := l.View(); l.Focused() != "interests" || !strings.Contains(v, "(2/2)") {
		t.Fatalf("focus %s:\n%s", l.Focused(), v)
	}
	pumpLive(l, []tea.Cmd{l.Edit("travelers")})
	if v := l.View(); l.Focused() != "travelers" || !strings.Contains(v, "(1/2)") {
		t.Fatalf("focus %s:\n%s", l.Focused(), v)
	}
	pumpLive(l, []tea.Cmd{l.Edit("")})
	if l.Focused() != "notes" {
		t.Fatalf("focus %s, want the last field", l.Focused())
	}
	if l.Values()["destination"] != "Oslo" {
		t.Fatalf("values %v", l.Values())
	}
}

// Enter moves on from a textarea too (its new line is alt+enter), so keys
// in the same burst land on the next field.
func TestKeysAfterEnterInATextareaLandOnTheNextField(t *testing.T) {
	def := Definition{Title: "t", Fields: []Field{{Name: "notes", Type: Textarea}, {Name: "e", Type: Text}}}
	l := start(def, nil, nil, nil)
	var pending []tea.Cmd
	for _, k := range []tea.KeyMsg{typed("abc"), press(tea.KeyEnter), typed("x")} {
		pending = append(pending, l.Update(k))
	}
	pumpLive(l, pending)
	if v := l.Values(); v["notes"] != "abc" || v["e"] != "x" {
		t.Fatalf("values %v, want notes=abc e=x", v)
	}
}

// ctrl+e is offered in a textarea only when its editor is installed.
func TestTextareaEditorOnlyWhenInstalled(t *testing.T) {
	installed := map[string]bool{"vim": true}
	look := func(name string) (string, error) {
		if installed[name] {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	env := func(v string) func(string) string { return func(string) string { return v } }
	for _, tc := range []struct {
		editor string
		want   bool
	}{{"vim -f", true}, {"", false}, {"nosuch", false}} {
		if got := editorOnPath(env(tc.editor), look); got != tc.want {
			t.Errorf("EDITOR=%q: offered %v, want %v", tc.editor, got, tc.want)
		}
	}
	def := Definition{Fields: []Field{{Name: "notes", Type: Textarea}}}
	for _, editor := range []bool{true, false} {
		keys := keysOf(Build(def, nil, nil, nil, BuildOptions{Width: 60, Editor: editor}))
		if strings.Contains(keys, "open editor") != editor {
			t.Fatalf("editor %v, keys: %s", editor, keys)
		}
	}
}
