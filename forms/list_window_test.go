package forms

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A select or multi-select with more options than fit windows them: the
// cursor and its neighbours always show, rows say how many options lie
// above and below, and no height draws none.

// twelve is the tester's list: "events" then a to k, "h" suggested.
func twelve(typ FieldType, description string) Field {
	f := Field{Name: "idx", Type: typ, Label: "Index", Description: description}
	for _, v := range []string{"events", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
		f.Options = append(f.Options, Option{Value: v, Label: "opt-" + v})
	}
	return f
}

var (
	moreRow  = regexp.MustCompile(`([↑↓]) (\d+) more`)
	bothRow  = regexp.MustCompile(`↑ (\d+) · ↓ (\d+) more`)
	upMark   = regexp.MustCompile(`↑(\d+)`)
	downMark = regexp.MustCompile(`↓(\d+)`)
)

// drawnWindow reads a list's window off a view: the options drawn in
// order, where the cursor is among them, and the counts of hidden ones.
func drawnWindow(t *testing.T, view string, f Field) (drawn []int, cursor, above, below int) {
	t.Helper()
	cursor = -1
	for _, line := range strings.Split(view, "\n") {
		body := strings.TrimLeft(line, "┃ ")
		if m := bothRow.FindStringSubmatch(body); m != nil {
			above, _ = strconv.Atoi(m[1])
			below, _ = strconv.Atoi(m[2])
			continue
		}
		if m := moreRow.FindStringSubmatch(body); m != nil && !strings.Contains(body, "opt-") {
			n, _ := strconv.Atoi(m[2])
			if m[1] == "↑" {
				above = n
			} else {
				below = n
			}
			continue
		}
		at := strings.HasPrefix(body, "> ")
		body = strings.TrimPrefix(body, "> ")
		body = strings.TrimLeft(body, "✓• ")
		for i, o := range f.Options {
			label := strings.Fields(body)
			if len(label) > 0 && label[0] == "opt-"+o.Value {
				drawn = append(drawn, i)
				if at {
					cursor = i
				}
				// too short for rows of their own, the counts follow the option
				if m := upMark.FindStringSubmatch(body); m != nil {
					above, _ = strconv.Atoi(m[1])
				}
				if m := downMark.FindStringSubmatch(body); m != nil {
					below, _ = strconv.Atoi(m[1])
				}
			}
		}
	}
	return drawn, cursor, above, below
}

// checkWindow holds a view to the rules of a windowed list with the
// cursor on want.
func checkWindow(t *testing.T, view string, f Field, want int, roomy bool) {
	t.Helper()
	drawn, cursor, above, below := drawnWindow(t, view, f)
	n := len(f.Options)
	switch {
	case len(drawn) == 0:
		t.Fatalf("no option drawn:\n%s", view)
	case cursor != want:
		t.Fatalf("cursor drawn on %d, want %d:\n%s", cursor, want, view)
	}
	for i := 1; i < len(drawn); i++ {
		if drawn[i] != drawn[i-1]+1 {
			t.Fatalf("options drawn out of order %v:\n%s", drawn, view)
		}
	}
	if above != drawn[0] || below != n-1-drawn[len(drawn)-1] {
		t.Fatalf("drawn %v of %d but said ↑%d ↓%d:\n%s", drawn, n, above, below, view)
	}
	if roomy && (want > 0 && !slices.Contains(drawn, want-1) || want < n-1 && !slices.Contains(drawn, want+1)) {
		t.Fatalf("cursor %d drawn without its neighbours %v:\n%s", want, drawn, view)
	}
}

func TestListWindowFollowsTheCursorAtEveryHeight(t *testing.T) {
	for _, typ := range []FieldType{Select, Multiselect} {
		for _, desc := range []string{"", "Which index to rebuild. Rebuilding takes the index offline for a minute or two, so pick the one that is slow."} {
			for _, height := range []int{0, 6, 8, 10, 12, 16, 30} {
				t.Run(fmt.Sprintf("%s/desc%v/h%d", typ, desc != "", height), func(t *testing.T) {
					f := twelve(typ, desc)
					prefill := Values{"idx": "h"}
					if typ == Multiselect {
						prefill = Values{"idx": []string{"h"}}
					}
					def := Definition{Title: "Rebuild", Fields: []Field{f, {Name: "after", Type: Text}}}
					l := start(def, nil, prefill, nil)
					if height > 0 {
						l.SetMaxHeight(height)
					}
					cur := 0
					if typ == Select {
						cur = 8 // the suggested "h"
					}
					roomy := height == 0 || height >= 6
					checkWindow(t, l.View(), f, cur, roomy)
					step := func(k tea.KeyType, by int) {
						pumpLive(l, []tea.Cmd{l.Update(press(k))})
						cur = max(0, min(len(f.Options)-1, cur+by))
						checkWindow(t, l.View(), f, cur, roomy)
					}
					for range 14 {
						step(tea.KeyDown, 1)
					}
					for range 14 {
						step(tea.KeyUp, -1)
					}
					if typ == Select && l.Values()["idx"] != "events" {
						t.Fatalf("cursor on the first option, value %v", l.Values()["idx"])
					}
				})
			}
		}
	}
}

func TestListSpan(t *testing.T) {
	for n := 1; n <= 15; n++ {
		for rows := 1; rows <= 16; rows++ {
			for cursor := 0; cursor < n; cursor++ {
				first, last := span(n, cursor, rows)
				marks := 0
				if rows >= minRows {
					marks = min(first, 1) + min(n-last, 1)
				}
				both := squeezed(n, rows, first, last)
				if both {
					marks = 1
				}
				where := fmt.Sprintf("n=%d rows=%d cursor=%d: [%d,%d)", n, rows, cursor, first, last)
				switch {
				case cursor < first || cursor >= last:
					t.Fatalf("%s: cursor outside", where)
				case last-first+marks > rows:
					t.Fatalf("%s: more than %d rows", where, rows)
				case n <= rows && (first != 0 || last != n):
					t.Fatalf("%s: a list that fits is drawn whole", where)
				case n > rows && last-first+marks != rows:
					t.Fatalf("%s: rows left empty", where)
				case both && rows != tightRows:
					t.Fatalf("%s: squeezed at %d rows", where, rows)
				case rows >= minRows && !both && (first == 1 || n-last == 1):
					t.Fatalf("%s: a row says 1 more where the option fits", where)
				case rows >= tightRows && (cursor > 0 && cursor-1 < first || cursor < n-1 && cursor+1 >= last):
					t.Fatalf("%s: a neighbour of the cursor is hidden", where)
				}
			}
		}
	}
}

// A short form gives the list's options its rows before its description:
// at 80x24 the tester saw a described list with no option at all.
func TestListShortFormKeepsOptionsBeforeDescription(t *testing.T) {
	f := twelve(Select, strings.Repeat("A long description that wraps over many lines. ", 12))
	l := Build(Definition{Title: "Rebuild", Fields: []Field{f}}, nil, Values{"idx": "h"}, nil, BuildOptions{Width: 60})
	pump(l.Form(), l.Form().Init())
	l.SetMaxHeight(11)
	view := l.View()
	checkWindow(t, view, f, 8, false)
	if !strings.Contains(view, "Index") || !strings.Contains(view, "…") {
		t.Fatalf("the title kept and the description cut with …:\n%s", view)
	}
	golden(t, "list_short_form", view)
}

func TestGoldenListWindows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		typ    FieldType
		height int
		keys   []tea.KeyType
	}{
		{"select_middle", Select, 0, nil},
		{"select_start", Select, 0, []tea.KeyType{tea.KeyHome}},
		{"select_end", Select, 0, []tea.KeyType{tea.KeyEnd}},
		{"select_h8", Select, 8, nil},
		{"multiselect_h6", Multiselect, 6, []tea.KeyType{tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyDown}},
		{"multiselect_h10", Multiselect, 10, []tea.KeyType{tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyDown, tea.KeyDown}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := twelve(tc.typ, "The index to rebuild")
			prefill := Values{"idx": "h"}
			if tc.typ == Multiselect {
				prefill = Values{"idx": []string{"b", "h"}}
			}
			l := start(Definition{Title: "Rebuild", Fields: []Field{f}}, nil, prefill, nil)
			if tc.height > 0 {
				l.SetMaxHeight(tc.height)
			}
			for _, k := range tc.keys {
				pumpLive(l, []tea.Cmd{l.Update(press(k))})
			}
			golden(t, "list_"+tc.name, l.View())
		})
	}
}

func TestListMultiselectKeys(t *testing.T) {
	limited := twelve(Multiselect, "")
	limited.MaxItems = ip(2)
	def := Definition{Fields: []Field{limited, {Name: "after", Type: Text}}}
	l := start(def, nil, nil, nil)
	keys := func(ks ...tea.Msg) {
		for _, k := range ks {
			pumpLive(l, []tea.Cmd{l.Update(k)})
		}
	}
	keys(typed("x"), press(tea.KeyDown), press(tea.KeySpace), press(tea.KeyDown), typed("x"))
	if got := l.Values()["idx"]; !reflect.DeepEqual(got, []string{"events", "a"}) {
		t.Fatalf("a third pick past the limit of 2 was taken: %v", got)
	}
	keys(press(tea.KeyCtrlA))
	if got := l.Values()["idx"]; !reflect.DeepEqual(got, []string{"events", "a"}) {
		t.Fatalf("select all ignored the limit: %v", got)
	}
	keys(press(tea.KeyUp), typed("x"), typed("/"), typed("opt-k"), press(tea.KeyEnter), typed("x"))
	if got := l.Values()["idx"]; !reflect.DeepEqual(got, []string{"events", "k"}) {
		t.Fatalf("unpick a, filter to k, pick it: %v", got)
	}
	if v := l.View(); !strings.Contains(v, "/opt-k") || strings.Contains(v, "opt-events") {
		t.Fatalf("filter not drawn:\n%s", v)
	}
	keys(press(tea.KeyEsc), press(tea.KeyEnter))
	if f := l.Form().GetFocusedField(); f.GetKey() != "after" {
		t.Fatalf("enter did not move on: %s", f.GetKey())
	}
	if got := l.Draft()["idx"]; !reflect.DeepEqual(got, []string{"events", "k"}) {
		t.Fatalf("draft %v", got)
	}

	all := start(Definition{Fields: []Field{twelve(Multiselect, ""), {Name: "after", Type: Text}}}, nil, nil, nil)
	pumpLive(all, []tea.Cmd{all.Update(press(tea.KeyCtrlA))})
	if got, _ := all.Values()["idx"].([]string); len(got) != 12 {
		t.Fatalf("ctrl+a picked %v", got)
	}
	pumpLive(all, []tea.Cmd{all.Update(press(tea.KeyCtrlA))})
	if got, _ := all.Values()["idx"].([]string); len(got) != 0 {
		t.Fatalf("ctrl+a again kept %v", got)
	}
}
