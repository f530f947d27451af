package forms

import "strings"

// PlainLine is a one-line text a model wrote — a request's title or
// reason, a tool's title — as the screen draws it: its light markdown
// rendered (PlainText), its lines joined by a space, and sanitised for one
// line. Every place that draws such a title or reason calls it, so
// "Pick the **index**" reads "Pick the index" in the form, the tab row,
// the transcript's cards and every dialog alike.
func PlainLine(s string) string {
	lines := strings.Split(PlainText(s), "\n")
	kept := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return SanitizeLine(strings.Join(kept, " "))
}
