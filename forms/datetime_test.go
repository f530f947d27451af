package forms

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// A date-time is typed as people type it, in local time, and sent (and
// shown back before the review) in RFC 3339 with the local offset.
func TestDateTimeTypedInLocalTime(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("CET", 3600)
	def := Definition{Title: "When", Fields: []Field{
		{Name: "at", Type: Text, Label: "At", Format: "date-time", Required: true},
		{Name: "note", Type: Text, Label: "Note"},
	}}
	got, ps := Normalize(def, Values{"at": "2026-12-24 10:00"}, "")
	if len(ps) > 0 || got["at"] != "2026-12-24T10:00:00+01:00" {
		t.Fatalf("normalized %v, problems %v", got, ps)
	}
	if got, ps := Normalize(def, Values{"at": "2026-12-24T10:00:00Z"}, ""); len(ps) > 0 || got["at"] != "2026-12-24T10:00:00Z" {
		t.Fatalf("RFC 3339 not kept: %v %v", got, ps)
	}
	if _, ps := Normalize(def, Values{"at": "24.12.2026 10:00"}, ""); len(ps) == 0 {
		t.Fatal("a date-time in no known shape was accepted")
	}

	l := start(def, nil, nil, nil)
	keys(l, typed("2026-12-24 10:00"))
	keys(l, press(tea.KeyTab))
	if v := l.Values()["at"]; v != "2026-12-24T10:00:00+01:00" {
		t.Fatalf("the field shows %v after leaving it, want its offset", v)
	}
	if len(l.Problems()) > 0 {
		t.Fatalf("problems %v", l.Problems())
	}
}
