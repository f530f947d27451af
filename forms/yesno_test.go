package forms

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// yesNoDef asks a required and an optional yes/no, then a text field.
var yesNoDef = Definition{Title: "Terms", Fields: []Field{
	{Name: "agree", Type: Boolean, Label: "Agree to terms", Required: true},
	{Name: "news", Type: Boolean, Label: "Newsletter"},
	{Name: "note", Type: Text, Label: "Note"},
}}

// marked is the button the view marks as chosen (ASCII profile: brackets),
// "" for none, for the field whose title line is label.
func marked(t *testing.T, view, label string) string {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, line := range lines {
		if !strings.Contains(line, label) {
			continue
		}
		for _, b := range lines[i+1:] {
			if strings.Contains(b, "Yes") && strings.Contains(b, "No") {
				switch {
				case strings.Contains(b, "[ Yes ]"):
					return "Yes"
				case strings.Contains(b, "[ No ]"):
					return "No"
				}
				return ""
			}
		}
	}
	t.Fatalf("no yes/no %q in:\n%s", label, view)
	return ""
}

func keys(l *Live, ks ...tea.Msg) {
	for _, k := range ks {
		pumpLive(l, []tea.Cmd{l.Update(k)})
	}
}

// A yes/no nobody answered is no answer: it is drawn with neither button
// marked, passing it does not say "No", a required one stays missing, and
// neither the draft nor the review claims a value.
func TestUntouchedBooleanIsNoAnswer(t *testing.T) {
	l := start(yesNoDef, nil, nil, nil)
	if m := marked(t, l.View(), "Agree to terms"); m != "" {
		t.Fatalf("an untouched yes/no is drawn as %s:\n%s", m, l.View())
	}
	keys(l, press(tea.KeyTab), press(tea.KeyEnter)) // past both
	if l.Focused() != "note" {
		t.Fatalf("focus on %q", l.Focused())
	}
	vals := l.Values()
	if len(vals) != 0 {
		t.Fatalf("values %v", vals)
	}
	if miss := Missing(yesNoDef, nil, vals); !reflect.DeepEqual(miss, []string{"agree"}) {
		t.Fatalf("missing %v", miss)
	}
	if d := l.Draft(); len(d) != 0 {
		t.Fatalf("draft %v", d)
	}
	view := l.View()
	if marked(t, view, "Agree to terms") != "" || marked(t, view, "Newsletter") != "" {
		t.Fatalf("passing marked a choice:\n%s", view)
	}
	review := Review(yesNoDef, nil, vals, 60)
	for _, want := range []string{"Agree to terms: (missing — required)", "Newsletter: (no answer)"} {
		if !strings.Contains(review, want) {
			t.Errorf("review lacks %q:\n%s", want, review)
		}
	}
}

// The user chooses with y and n (which move on), ← (Yes), → (No) and
// space (flips; from nothing to Yes). The choice is the answer, and the
// draft keeps it.
func TestBooleanKeysChoose(t *testing.T) {
	cases := []struct {
		name  string
		keys  []tea.KeyMsg
		want  any // the value of agree; nil: none
		focus string
	}{
		{"y", []tea.KeyMsg{typed("y")}, true, "news"},
		{"n", []tea.KeyMsg{typed("n")}, false, "news"},
		{"Y", []tea.KeyMsg{typed("Y")}, true, "news"},
		{"left", []tea.KeyMsg{press(tea.KeyLeft)}, true, "agree"},
		{"right", []tea.KeyMsg{press(tea.KeyRight)}, false, "agree"},
		{"right then left", []tea.KeyMsg{press(tea.KeyRight), press(tea.KeyLeft)}, true, "agree"},
		{"h and l", []tea.KeyMsg{typed("l")}, false, "agree"},
		{"space", []tea.KeyMsg{press(tea.KeySpace)}, true, "agree"},
		{"space twice", []tea.KeyMsg{press(tea.KeySpace), press(tea.KeySpace)}, false, "agree"},
		{"right then tab", []tea.KeyMsg{press(tea.KeyRight), press(tea.KeyTab)}, false, "news"},
		{"other keys choose nothing", []tea.KeyMsg{typed("x"), press(tea.KeyUp), press(tea.KeyTab)}, nil, "news"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := start(yesNoDef, nil, nil, nil)
			for _, k := range tc.keys {
				keys(l, k)
			}
			v, has := l.Values()["agree"]
			if tc.want == nil && has || tc.want != nil && v != tc.want {
				t.Fatalf("agree = %v (%v), want %v", v, has, tc.want)
			}
			if l.Focused() != tc.focus {
				t.Fatalf("focus on %q, want %q", l.Focused(), tc.focus)
			}
			want := map[any]string{true: "Yes", false: "No", nil: ""}[tc.want]
			if m := marked(t, l.View(), "Agree to terms"); m != want {
				t.Fatalf("drawn as %q, want %q:\n%s", m, want, l.View())
			}
			if tc.want != nil {
				if d := l.Draft(); d["agree"] != tc.want {
					t.Fatalf("draft %v", d)
				}
				back := Build(yesNoDef, nil, nil, l.Draft(), BuildOptions{Width: 60})
				if back.Values()["agree"] != tc.want || back.slot("agree").suggested {
					t.Fatalf("rebuilt from the draft: %v", back.Values())
				}
			}
		})
	}
}

// A prefill, or a schema's default, is drawn as a suggestion on its
// button; passing the field takes it, as it does a text prefill, and the
// user may choose the other.
func TestBooleanSuggestion(t *testing.T) {
	decl, probs := ParseDeclaration([]byte(`{"requestKey":"k","source":{"kind":"schema","requestedSchema":{"type":"object",
		"properties":{"agree":{"type":"boolean","title":"Agree to terms","default":false},"news":{"type":"boolean","title":"Newsletter"}},
		"required":["agree"]}}}`), nil)
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	l := start(decl.Definition, nil, decl.Prefill, nil)
	view := l.View()
	if !l.slot("agree").suggested || !strings.Contains(view, "Agree to terms * · suggested") || marked(t, view, "Agree to terms") != "No" {
		t.Fatalf("the default is not drawn as a suggestion:\n%s", view)
	}
	if marked(t, view, "Newsletter") != "" {
		t.Fatalf("a boolean without a default is drawn answered:\n%s", view)
	}
	if len(l.Draft()) != 0 {
		t.Fatalf("a suggestion in the draft: %v", l.Draft())
	}
	keys(l, press(tea.KeyTab))
	if l.slot("agree").suggested || l.Values()["agree"] != false || l.Draft()["agree"] != false {
		t.Fatalf("passing did not take the suggestion: %v %v", l.Values(), l.Draft())
	}

	l = start(yesNoDef, nil, Values{"agree": true}, nil)
	keys(l, press(tea.KeyRight))
	if l.slot("agree").suggested || l.Values()["agree"] != false || marked(t, l.View(), "Agree to terms") != "No" {
		t.Fatalf("choosing over a suggestion: %v\n%s", l.Values(), l.View())
	}
}
