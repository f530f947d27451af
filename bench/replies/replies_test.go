package replies

import (
	"strings"
	"testing"
)

// TestDeltasRebuildTheReply: the deltas join to the reply exactly, and
// the reply has about the words asked for and ends with its mark.
func TestDeltasRebuildTheReply(t *testing.T) {
	for _, words := range []int{10, 500, 6000} {
		text := Markdown(words, 1)
		ds := Deltas(text)
		if strings.Join(ds, "") != text {
			t.Fatalf("%d words: the deltas do not join to the reply", words)
		}
		got := len(strings.Fields(text))
		if got < words || got > words+100 || !strings.HasSuffix(text, EndMark(words, 1)) {
			t.Fatalf("%d words asked: %d words, ends %q", words, got, text[len(text)-30:])
		}
		if per := float64(len(ds)) / float64(got); per < 1.1 || per > 2 {
			t.Fatalf("%d words: %.2f deltas a word", words, per)
		}
		if Markdown(words, 1) != text || Markdown(words, 2) == text {
			t.Fatalf("%d words: the seed does not decide the text", words)
		}
	}
}
