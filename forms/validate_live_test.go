package forms

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Text of only spaces (and invisible format characters) is no answer: a
// required field holding it stays missing, whoever sends it.
func TestBlankTextIsMissing(t *testing.T) {
	for _, blankText := range []string{"   ", "\u00a0\u2003", " \u200b ", "\u2060"} {
		vals, probs := Normalize(travelDef, map[string]any{"destination": blankText, "notes": "\n \n"}, "/values")
		if len(probs) > 0 || len(vals) != 0 {
			t.Fatalf("%q: values %v problems %v", blankText, vals, probs)
		}
		if m := Missing(travelDef, Values{"destination": blankText}); len(m) == 0 || m[0] != "destination" {
			t.Fatalf("%q: missing %v", blankText, m)
		}
	}
	l := start(travelDef, nil, nil, nil)
	pumpLive(l, []tea.Cmd{l.Update(typed("   "))})
	if m := Missing(travelDef, l.Values()); len(m) == 0 || m[0] != "destination" {
		t.Fatalf("spaces typed count as a destination: values %q missing %v", l.Values(), m)
	}
	if l.Draft()["destination"] != "   " {
		t.Fatalf("the draft lost what was typed: %q", l.Draft())
	}
	if vals, _ := Normalize(travelDef, map[string]any{"destination": " Oslo "}, ""); vals["destination"] != " Oslo " {
		t.Fatalf("text with words changed: %q", vals)
	}
}

// Each field's own problem shows beside it as the user leaves it, and
// leaving is never blocked; a fix clears it as it is typed.
func TestProblemsShowOnLeavingAField(t *testing.T) {
	l := start(travelDef, Values{"ok": true}, nil, nil)
	keys := func(ks ...tea.KeyMsg) {
		for _, k := range ks {
			pumpLive(l, []tea.Cmd{l.Update(k)})
		}
	}
	keys(typed("Oslo"), press(tea.KeyTab), typed("2025-13-40"))
	if v := l.View(); strings.Contains(v, "✗") {
		t.Fatalf("a problem shows before the field is left:\n%s", v)
	}
	keys(press(tea.KeyTab), typed("20"), press(tea.KeyTab))
	if l.Focused() != "budget" {
		t.Fatalf("leaving was blocked: focus on %s", l.Focused())
	}
	v := l.View()
	for _, want := range []string{"✗ Start date is not a valid date (YYYY-MM-DD)", "✗ Travelers must be at most 12"} {
		if !strings.Contains(v, want) {
			t.Fatalf("no %q beside its field:\n%s", want, v)
		}
	}
	if strings.Contains(v, "whole number, 1–12") {
		t.Fatalf("the hint shows instead of the problem:\n%s", v)
	}
	keys(press(tea.KeyShiftTab), press(tea.KeyBackspace))
	if v := l.View(); strings.Contains(v, "at most 12") || !strings.Contains(v, "whole number, 1–12") {
		t.Fatalf("fixing the value did not clear its problem:\n%s", v)
	}
	if v := l.View(); !strings.Contains(v, "✗ Start date is not a valid date") {
		t.Fatalf("another field's problem went away:\n%s", v)
	}
}

// Problems the screen sets (a review, a refused reply) are drawn beside
// their fields, on any page, until the field is edited; those that name
// no asked field are handed back.
func TestSetProblemsDrawsEachBesideItsField(t *testing.T) {
	l := start(travelDef, Values{"ok": true}, nil, Values{"destination": "Oslo", "interests": []string{"food"}})
	general := Problem{Path: "/values", Message: "the reply is too large"}
	supplied := Problem{Path: "/values/ok", Message: "this value was supplied by the declaration and cannot be changed"}
	rest := l.SetProblems([]Problem{
		{Path: "/values/start", Message: "Start date is not a valid date (YYYY-MM-DD)"},
		{Path: "/values/interests/0", Message: `"golf" is not one of the options of Interests`},
		general, supplied,
	})
	if !reflect.DeepEqual(rest, []Problem{general, supplied}) {
		t.Fatalf("handed back %v", rest)
	}
	pumpLive(l, []tea.Cmd{l.Edit("start")})
	if v := l.View(); !strings.Contains(v, "✗ Start date is not a valid date") {
		t.Fatalf("no problem beside the start date:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Edit("interests")})
	if v := l.View(); !strings.Contains(v, `✗ "golf" is not one of the options of Interests`) {
		t.Fatalf("no problem beside a field on page 2:\n%s", v)
	}
	pumpLive(l, []tea.Cmd{l.Edit("start")})
	pumpLive(l, []tea.Cmd{l.Update(typed("2"))})
	if v := l.View(); strings.Contains(v, "✗ Start date is not") {
		t.Fatalf("an edit left the old problem:\n%s", v)
	}
	l.SetProblems(nil)
	pumpLive(l, []tea.Cmd{l.Edit("interests")})
	if v := l.View(); strings.Contains(v, "✗") {
		t.Fatalf("SetProblems(nil) left problems:\n%s", v)
	}
}
