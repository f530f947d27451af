package forms

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// PlainText renders light markdown — an assistant reply, a form's or a
// field's description — as plain text for a terminal or a log: emphasis and code marks go, headings lose their #,
// list items keep a "- " or their number, links become "text (url)",
// fenced code is indented by four spaces and left as written. Line breaks
// stay where they are; nothing is wrapped. The result is not sanitised
// (callers sanitise what they print).
func PlainText(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	out := make([]string, 0, len(lines))
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
				continue
			}
			out = append(out, "    "+line)
			continue
		}
		if f := fenceOpen(trimmed); f != "" {
			fence = f
			continue
		}
		switch {
		case setextUnderline(trimmed) && i > 0 && strings.TrimSpace(lines[i-1]) != "":
			continue // the line above is the heading; it is already out
		case thematicBreak(trimmed):
			out = append(out, "----")
		default:
			out = append(out, blockLine(line))
		}
	}
	return strings.Join(out, "\n")
}

var (
	headingRe  = lazyRegexp(`^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$`)
	bulletRe   = lazyRegexp(`^(\s*)[-*+]\s+(.*)$`)
	orderedRe  = lazyRegexp(`^(\s*)(\d{1,9}[.)])\s+(.*)$`)
	quoteRe    = lazyRegexp(`^(\s*)>\s?(.*)$`)
	autolinkRe = lazyRegexp(`^<((?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)|(?:[^\s<>@]+@[^\s<>@]+))>`)
)

// blockLine renders one line outside fenced code.
func blockLine(line string) string {
	if m := headingRe().FindStringSubmatch(line); m != nil {
		return inlineText(m[1])
	}
	if m := quoteRe().FindStringSubmatch(line); m != nil {
		return m[1] + "> " + blockLine(m[2])
	}
	if m := bulletRe().FindStringSubmatch(line); m != nil {
		return m[1] + "- " + inlineText(m[2])
	}
	if m := orderedRe().FindStringSubmatch(line); m != nil {
		return m[1] + m[2] + " " + inlineText(m[3])
	}
	return inlineText(strings.TrimRight(line, " "))
}

func fenceOpen(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			n := len(trimmed) - len(strings.TrimLeft(trimmed, f[:1]))
			return strings.Repeat(f[:1], n)
		}
	}
	return ""
}

func setextUnderline(t string) bool {
	return len(t) >= 2 && strings.Trim(t, "=") == ""
}

func thematicBreak(t string) bool {
	s := strings.ReplaceAll(t, " ", "")
	if len(s) < 3 {
		return false
	}
	c := s[0]
	return (c == '-' || c == '*' || c == '_') && strings.Trim(s, string(c)) == ""
}

// inlineText renders emphasis, code spans, links, images, autolinks and
// backslash escapes of one line. A mark with no partner stays as written.
func inlineText(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i := 0; i < len(r); {
		out, n := inlineAt(r, i)
		b.WriteString(out)
		i += n
	}
	return b.String()
}

// inlineAt renders what starts at r[i]: a mark and what it marks, or one
// rune (a run of marks with no partner, as written); n is the runes read.
func inlineAt(r []rune, i int) (string, int) {
	c := r[i]
	switch {
	case c == '\\' && i+1 < len(r) && isASCIIPunct(r[i+1]):
		return string(r[i+1]), 2
	case c == '`':
		n := runOf(r, i)
		j := findRun(r, i+n, '`', n)
		if j < 0 {
			return string(r[i : i+n]), n
		}
		code := string(r[i+n : j])
		if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.TrimSpace(code) != "" {
			code = code[1 : len(code)-1]
		}
		return code, j + n - i
	case c == '[' || c == '!' && i+1 < len(r) && r[i+1] == '[':
		from := i
		if c == '!' {
			from++ // an image reads as its text
		}
		if text, url, next, ok := link(r, from); ok {
			return linkText(text, url), next - i
		}
	case c == '<':
		if m := autolinkRe().FindStringSubmatch(string(r[i:])); m != nil {
			return m[1], len([]rune(m[0]))
		}
	case c == '*' || c == '_' || c == '~':
		n := runOf(r, i)
		if j := emphasisEnd(r, i, n); j >= 0 {
			return inlineText(string(r[i+n : j])), j + n - i
		}
		return string(r[i : i+n]), n
	}
	return string(c), 1
}

// runOf is the length of the run of r[i] starting at i.
func runOf(r []rune, i int) int {
	n := 0
	for i+n < len(r) && r[i+n] == r[i] {
		n++
	}
	return n
}

// findRun finds, from i, a run of exactly n c's; -1 when there is none.
func findRun(r []rune, i int, c rune, n int) int {
	for i < len(r) {
		if r[i] != c {
			i++
			continue
		}
		m := runOf(r, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// emphasisEnd finds the closing run of the emphasis opened by the n marks
// at i, or -1 when they open nothing: an opener is followed by a
// non-space, a closer preceded by one; "_" does not work inside words
// (snake_case stays), "~" only as "~~".
func emphasisEnd(r []rune, i, n int) int {
	c := r[i]
	if c == '~' && n != 2 {
		return -1
	}
	after := i + n
	if after >= len(r) || unicode.IsSpace(r[after]) {
		return -1
	}
	if c == '_' && i > 0 && isWordRune(r[i-1]) {
		return -1
	}
	for j := after + 1; j < len(r); {
		if r[j] != c {
			j++
			continue
		}
		m := runOf(r, j)
		closes := m == n && !unicode.IsSpace(r[j-1]) &&
			!(c == '_' && j+m < len(r) && isWordRune(r[j+m]))
		if closes {
			return j
		}
		j += m
	}
	return -1
}

// link reads "[text](url)" at r[i] == '['; next is the index after it.
func link(r []rune, i int) (text, url string, next int, ok bool) {
	depth, j := 0, i
	for ; j < len(r); j++ {
		switch r[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(r) || j+1 >= len(r) || r[j+1] != '(' {
		return "", "", 0, false
	}
	end := -1
	for k := j + 2; k < len(r); k++ {
		if r[k] == ')' {
			end = k
			break
		}
	}
	if end < 0 {
		return "", "", 0, false
	}
	dest := strings.TrimSpace(string(r[j+2 : end]))
	if d, _, found := strings.Cut(dest, " "); found {
		dest = d // a title ("…") after the address is left out
	}
	return inlineText(string(r[i+1 : j])), strings.Trim(dest, "<>"), end + 1, true
}

func linkText(text, url string) string {
	switch {
	case url == "" || text == url:
		if text == "" {
			return url
		}
		return text
	case text == "":
		return url
	}
	return text + " (" + url + ")"
}

func isWordRune(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

func isASCIIPunct(c rune) bool {
	return c < 128 && unicode.IsPunct(c) || strings.ContainsRune("$+<=>^`|~", c)
}

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

// lazyRegexp compiles expr on first use, not at start-up: a bounded
// repetition such as {1,64} compiles to a long program, and every command
// would pay for it whether it reads a description or not.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
