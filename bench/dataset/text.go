package dataset

import (
	"math/rand/v2"
	"strings"
)

var words = strings.Fields(`the release build staging production cache index query migration draft answer
	form field request pipeline config deploy rollback region latency budget itinerary museum train
	ticket hotel schedule review owner service database timeout retry backoff schema token model
	terminal keyboard window layout theme render message transcript proposal delivery receipt`)

var idents = strings.Fields(`make\ build go\ test\ ./... FOLLOWUP_DB --json deploy.yaml main.go
	ctx.Done() SELECT\ id\ FROM\ requests v1.4.2 /var/log/app.log git\ push\ origin`)

var headings = []string{"Summary", "Next steps", "What I found", "Plan", "Itinerary", "Open questions", "Changes"}

var userLines = []string{
	"Check the deployment of the billing service",
	"Plan a trip for the spring",
	"Can you look at why the nightly job failed?",
	"Summarise what changed since yesterday",
	"Please prepare the release notes",
	"What is the status of the migration?",
	"Make the tests faster",
	"Book something near the museum district",
	"ok, go on",
	"Use the staging cluster for now",
}

// text builds deterministic prose and markdown from one random source.
type text struct{ r *rand.Rand }

func (t text) word() string { return words[t.r.IntN(len(words))] }

func (t text) sentence() string {
	n := 6 + t.r.IntN(12)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := t.word()
		switch t.r.IntN(14) {
		case 0:
			w = "**" + w + "**"
		case 1:
			w = "`" + strings.ReplaceAll(idents[t.r.IntN(len(idents))], `\ `, " ") + "`"
		}
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

func (t text) paragraph() string {
	n := 1 + t.r.IntN(4)
	s := make([]string, n)
	for i := range s {
		s[i] = t.sentence()
	}
	return strings.Join(s, " ")
}

// user is a chat message as people type them: short, sometimes two lines.
func (t text) user() string {
	s := userLines[t.r.IntN(len(userLines))]
	if t.r.IntN(4) == 0 {
		s += "\n" + t.sentence()
	}
	return s
}

// reply is an assistant turn in markdown: headings, lists, `code`, **bold**,
// now and then a fenced block; a few are long.
func (t text) reply() string {
	var parts []string
	if t.r.IntN(3) == 0 {
		parts = append(parts, "## "+headings[t.r.IntN(len(headings))])
	}
	parts = append(parts, t.paragraph())
	switch t.r.IntN(4) {
	case 0:
		items := make([]string, 2+t.r.IntN(4))
		for i := range items {
			items[i] = "- " + t.sentence()
		}
		parts = append(parts, strings.Join(items, "\n"))
	case 1:
		items := make([]string, 2+t.r.IntN(3))
		for i := range items {
			items[i] = string(rune('1'+i)) + ". " + t.sentence()
		}
		parts = append(parts, strings.Join(items, "\n"))
	case 2:
		parts = append(parts, "```\n"+strings.ReplaceAll(idents[t.r.IntN(len(idents))], `\ `, " ")+"\n```")
	}
	if t.r.IntN(10) == 0 {
		for range 3 + t.r.IntN(5) {
			parts = append(parts, t.paragraph())
		}
	}
	return strings.Join(parts, "\n\n")
}
