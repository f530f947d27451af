// Package replies makes the long markdown replies the streaming benchmarks
// send (docs/performance.md, "streaming a reply"): deterministic text of a given
// number of words, split into deltas the way a model streams tokens.
package replies

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var vocabulary = strings.Fields(`the release build staging production cache index query migration draft
	answer form field request pipeline config deploy rollback region latency budget itinerary museum
	train ticket hotel schedule review owner service database timeout retry backoff schema token model
	terminal keyboard window layout theme render message transcript proposal delivery receipt a of to
	and is in it we this that for on with as be are was check plan later first then`)

var headings = []string{"Summary", "Next steps", "What I found", "Plan", "Open questions", "Changes"}

// EndMark ends every reply, so a script can find the reply's last line on
// screen (the seed tells replies of one chat apart).
func EndMark(words int, seed uint64) string {
	return fmt.Sprintf("End of the %d-word reply (%d).", words, seed)
}

// Markdown is a reply of about words words: a heading now and then,
// paragraphs of one to five sentences, lists, **bold** and `code`, and
// EndMark last. The same words and seed always give the same text.
func Markdown(words int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, uint64(words)))
	var b strings.Builder
	n := 0
	sentence := func() {
		k := 6 + r.IntN(12)
		for i := range k {
			w := vocabulary[r.IntN(len(vocabulary))]
			switch r.IntN(16) {
			case 0:
				w = "**" + w + "**"
			case 1:
				w = "`" + w + "()`"
			}
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteByte('.')
		n += k
	}
	for n < words {
		switch r.IntN(6) {
		case 0:
			h := headings[r.IntN(len(headings))]
			fmt.Fprintf(&b, "## %s\n\n", h)
			n += 1 + strings.Count(h, " ") + 1
		case 1:
			for i := range 2 + r.IntN(4) {
				fmt.Fprintf(&b, "%d. ", i+1)
				n++
				sentence()
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
			continue
		}
		for i := range 1 + r.IntN(5) {
			if i > 0 {
				b.WriteByte(' ')
			}
			sentence()
		}
		b.WriteString("\n\n")
	}
	b.WriteString(EndMark(words, seed))
	return b.String()
}

// Deltas splits text as a model streams it: a delta per short word, two
// for a longer one, the spaces and line breaks before a word going with
// it (about 1.5 deltas a word).
func Deltas(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\n') {
			j++
		}
		k := j
		for k < len(text) && text[k] != ' ' && text[k] != '\n' {
			k++
		}
		if k-j > 5 {
			mid := j + (k-j)/2
			out = append(out, text[i:mid], text[mid:k])
		} else {
			out = append(out, text[i:k])
		}
		i = k
	}
	return out
}
