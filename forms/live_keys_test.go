package forms

import (
	"strings"
	"testing"
)

// A list short enough to be seen whole neither offers "/ filter" nor takes
// "/": typed there it filters nothing. A long list offers and takes it.
// Moving between fields and submitting are never the field's to name.
func TestOnlyLongListsFilter(t *testing.T) {
	short := Field{Name: "transport", Type: Select, Options: []Option{{Value: "train"}, {Value: "plane"}, {Value: "car"}}}
	long := Field{Name: "city", Type: Select}
	for _, c := range "abcdefghijkl" {
		long.Options = append(long.Options, Option{Value: "city " + string(c)})
	}
	for _, tc := range []struct {
		f      Field
		filter bool
	}{{short, false}, {long, true}} {
		l := start(Definition{Title: "t", Fields: []Field{tc.f}}, nil, nil, nil)
		offered := keysOf(l)
		if strings.Contains(offered, "/ filter") != tc.filter || strings.Contains(offered, "enter") || strings.Contains(offered, "tab") {
			t.Errorf("%d options: the field offers %q", len(tc.f.Options), offered)
		}
		keys(l, typed("/"))
		keys(l, typed("zz"))
		if filtering := strings.Contains(l.View(), "zz"); filtering != tc.filter {
			t.Errorf("%d options: after / and zz, filtering %v:\n%s", len(tc.f.Options), filtering, l.View())
		}
	}
}

// keysOf is the focused field's bindings as a hint line would say them.
func keysOf(l *Live) string {
	var parts []string
	for _, b := range l.KeyBinds() {
		parts = append(parts, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(parts, " · ")
}

// Every key a yes/no offers is named: the hint line has no blank entry,
// and says how to choose with the arrows as well as y and n.
func TestYesNoKeysAreAllNamed(t *testing.T) {
	l := start(yesNoDef, nil, nil, nil)
	_ = l.View() // huh names y and n as it draws
	for _, b := range l.KeyBinds() {
		if b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("a yes/no offers a key with no name (keys %q): %q", b.Keys(), keysOf(l))
		}
	}
	for _, want := range []string{"←/→ choose", "y Yes", "n No"} {
		if !strings.Contains(keysOf(l), want) {
			t.Errorf("a yes/no offers %q, without %q", keysOf(l), want)
		}
	}
}
