package forms

import (
	"strings"
	"testing"
)

// A text is held as drawn without what terminals draw at different widths,
// and an edit of the drawn text keeps the rest as typed.
func TestDrawnTextKeepsWhatIsNotDrawn(t *testing.T) {
	t.Parallel()
	d := SplitDrawn("a👋🏽b")
	if d.Text() != "a👋🏽b" || d.Drawn() != "a👋b" {
		t.Fatalf("text %q drawn %q", d.Text(), d.Drawn())
	}
	for _, c := range []struct{ v, typed, want string }{
		{"a👋bc", "c", "a👋🏽bc"},   // typed at the end
		{"xa👋b", "x", "xa👋🏽b"},   // typed at the start
		{"a👋", "", "a👋🏽"},        // b deleted
		{"ab", "", "ab"},         // the emoji deleted, its skin tone with it
		{"a👋👍b", "👍🏿", "a👋🏽👍🏿b"}, // typed with a skin tone of its own
	} {
		if got := d.Edit(c.v, c.typed); got != c.want {
			t.Errorf("Edit(%q, %q) = %q, want %q", c.v, c.typed, got, c.want)
		}
	}
	if got := DrawTyped("👍🏿"); got != "👍" {
		t.Errorf("DrawTyped = %q", got)
	}
}

// A delete that took one rune of a cluster says how much of it is left.
func TestDrawnTextRestOfACluster(t *testing.T) {
	t.Parallel()
	family := "👨\u200d👩\u200d👧"
	d := SplitDrawn("a" + family + "b")
	for _, c := range []struct {
		after       string
		back, ahead int
	}{
		{"a👨\u200d👩\u200db", 4, 0}, // backspace after the family took 👧
		{"a\u200d👩\u200d👧b", 0, 4}, // delete before it took 👨
		{"a" + family, 0, 0},       // b: a whole cluster
		{"b", 0, 0},                // more than one rune: not a delete of one
	} {
		if back, ahead := d.Rest(c.after); back != c.back || ahead != c.ahead {
			t.Errorf("Rest(%q) = %d, %d; want %d, %d", c.after, back, ahead, c.back, c.ahead)
		}
	}
}

// A cursor column inside a cluster moves to its start or its end.
func TestBoundaryKeepsTheCursorOutOfClusters(t *testing.T) {
	t.Parallel()
	line := "a👨\u200d👩\u200d👧b" // a at 0, the family at 1–5, b at 6
	for _, c := range []struct {
		col  int
		back bool
		want int
	}{{0, false, 0}, {1, false, 1}, {2, false, 6}, {5, true, 1}, {6, true, 6}, {7, false, 7}, {9, false, 9}} {
		if got := Boundary(line, c.col, c.back); got != c.want {
			t.Errorf("Boundary(%d, %v) = %d, want %d", c.col, c.back, got, c.want)
		}
	}
}

// The review draws a skin tone's emoji without it, and says the value is
// sent with it; a value without one says nothing of the kind.
func TestReviewSaysASkinToneIsSent(t *testing.T) {
	t.Parallel()
	got := Review(travelDef, nil, Values{"destination": "x👋🏽y", "notes": "fine 👍"}, 0)
	dest, notes := lineOf(got, "Destination:"), lineOf(got, "Notes:")
	if !strings.Contains(dest, "x👋y") || !strings.Contains(dest, "(sent with a skin tone this screen does not draw)") {
		t.Fatalf("destination reviewed as %q", dest)
	}
	if strings.Contains(notes, "skin tone") {
		t.Fatalf("notes reviewed as %q", notes)
	}
	if !UndrawnSkinTone("👍🏿") || UndrawnSkinTone("🏿 alone") || UndrawnSkinTone("❤️") {
		t.Fatal("UndrawnSkinTone is wrong")
	}
}

func lineOf(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
