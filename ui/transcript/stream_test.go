package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"

	"followup/chat"
)

// streamTexts are replies that test where a line may be drawn once:
// markdown, wrapping, blank lines, CR LF, tabs, wide characters, emoji
// with modifiers, and escape sequences, some running past a line break or
// never ending.
var streamTexts = []string{
	"Here is the **plan**:\n\n1. Run `make test` on the branch.\n2. Deploy it.\n",
	strings.Repeat("a rather long sentence that has to wrap several times at narrow widths, ", 6) + "\nend",
	"crlf line\r\nnext line\r\n\r\nlast\r",
	"tab\tseparated\tcolumns\n\tindented\n",
	"宽字符的句子，需要正确地换行和对齐。宽字符的句子，需要正确地换行和对齐。\n👍🏽 thumbs\n🏽 alone\n",
	"colour \x1b[31mred\x1b[0m and\nmore \x9b31mC1\n",
	"title \x1b]0;a title\nthat spans\x07 lines\nafter it\n",
	"never ends \x1b]2;open\nand on\nand on\n",
	"bidi \u202eevil\u202c and zero\u200bwidth\n\n\n",
	"**bold across\nlines** stays plain\n`code across\nlines` too\n",
}

// TestStreamDrawsWhatIsStored: at every point of a stream, whatever its
// deltas, the streaming reply is drawn exactly as the stored reply with
// the same text would be.
func TestStreamDrawsWhatIsStored(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	texts := append([]string(nil), streamTexts...)
	texts = append(texts, strings.Join(streamTexts, ""))
	for _, width := range []int{12, 37, 100} {
		for ti, text := range texts {
			for trial := range 4 {
				var s stream
				for done := 0; done < len(text); {
					n := 1 + r.IntN(12)
					if trial == 0 {
						n = 1 // a byte at a time
					}
					done = min(len(text), done+n)
					s.raw.WriteString(text[len(s.raw.String()):done])
					got := strings.Join(s.draw(width)[1:], "\n")
					want := renderEntry(chat.Message{Role: "assistant", Content: text[:done]}, Data{}, width)
					if got != want {
						t.Fatalf("text %d, width %d, after %d bytes:\n got %q\nwant %q", ti, width, done, got, want)
					}
				}
			}
		}
	}
}
