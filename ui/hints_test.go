package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// The form pane draws one hint line, in one separator style, from the
// keys that apply now: the focused field's own among them, "/ filter"
// only on a list long enough to need it.
func TestOneHintLineFromTheKeysThatApply(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	sent := k.ask("Check deployment")
	var opts []string
	for i := range 12 {
		opts = append(opts, fmt.Sprintf("%q", fmt.Sprintf("region-%02d", i)))
	}
	long := `{"requestKey":"region","source":{"kind":"dynamic","definition":{"title":"Pick a region",
		"fields":[{"name":"region","type":"select","options":[` + strings.Join(opts, ",") + `]}]}}}`
	if _, err := k.svc.OpenRequest(context.Background(), sent.RunID, "call_x", json.RawMessage(long)); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	k.m.setFocus(focusForm)
	hint := func() string {
		t.Helper()
		frame := frameOf(k.m)
		if strings.Contains(frame, "•") {
			t.Fatalf("a second hint style is drawn:\n%s", frame)
		}
		for _, line := range strings.Split(frame, "\n") {
			if strings.Contains(line, "enter continue") {
				return line
			}
		}
		t.Fatalf("no hint line:\n%s", frame)
		return ""
	}
	seen := map[string]bool{}
	for range 2 { // each question in turn
		r, _ := k.m.pane.activeRequest()
		seen[r.ID] = true
		h := hint()
		switch long := len(r.Fields[0].Options) > 8; {
		case long && !strings.Contains(h, "enter continue · ↑ up · ↓ down · / filter · esc leave"):
			t.Fatalf("%d options: %s", len(r.Fields[0].Options), h)
		case !long && (!strings.Contains(h, "enter continue · ↑ up · ↓ down · esc leave") || strings.Contains(h, "filter")):
			t.Fatalf("%d options: %s", len(r.Fields[0].Options), h)
		}
		_, cmd := k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlN})
		deliver(k.m, cmd) // its form is installed
		k.m.setFocus(focusForm)
	}
	if len(seen) != 2 {
		t.Fatal("ctrl+n did not show the other question")
	}
}

// While a long list's filter is typed or set, esc is the list's (it sets,
// then clears the filter) and the hint line says so instead of "esc
// leave"; then esc leaves the form.
func TestEscEndsAListsFilterBeforeLeavingTheForm(t *testing.T) {
	t.Parallel()
	k := newKit(t)
	sent := k.ask("Check deployment")
	var opts []string
	for i := range 12 {
		opts = append(opts, fmt.Sprintf("%q", fmt.Sprintf("region-%02d", i)))
	}
	long := `{"requestKey":"region","source":{"kind":"dynamic","definition":{"title":"Pick a region",
		"fields":[{"name":"region","type":"select","options":[` + strings.Join(opts, ",") + `]}]}}}`
	if _, err := k.svc.OpenRequest(context.Background(), sent.RunID, "call_x", json.RawMessage(long)); err != nil {
		t.Fatal(err)
	}
	k.load(sent.ChatID)
	if r, _ := k.m.pane.activeRequest(); len(r.Fields[0].Options) != 12 {
		_, cmd := k.m.Update(tea.KeyMsg{Type: tea.KeyCtrlN})
		deliver(k.m, cmd) // the long list's form is installed
	}
	k.m.setFocus(focusForm)
	step := func(msg tea.KeyMsg, want, not string) {
		t.Helper()
		_, cmd := k.m.Update(msg)
		deliver(k.m, cmd)
		frame := frameOf(k.m)
		if k.m.focus != focusForm || !strings.Contains(frame, want) || strings.Contains(frame, not) {
			t.Fatalf("after %v: focus %v, want %q and no %q:\n%s", msg, k.m.focus, want, not, frame)
		}
	}
	step(typed("/"), "esc set filter", "esc leave")
	step(typed("07"), "region-07", "region-06")
	step(tea.KeyMsg{Type: tea.KeyEsc}, "esc clear filter", "esc leave")
	step(tea.KeyMsg{Type: tea.KeyEsc}, "esc leave", "/07")
	_, cmd := k.m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	deliver(k.m, cmd)
	if k.m.focus != focusComposer {
		t.Fatalf("esc without a filter left the focus at %v", k.m.focus)
	}
}
