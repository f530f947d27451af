package forms

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"time"
)

// formats are the text formats of Formats: how an answer is checked, how
// Constraints names the format, and what an empty field shows. Checks use
// the standard library's parsers for the grammars they name. A JSON Schema
// library was measured at 10 ms of package start-up in every process, a
// third of the start-up budget, for four checks.
var formats = map[string]struct {
	check               func(string) bool
	phrase, placeholder string
}{
	"email":     {isEmail, "email address", "name@example.com"},
	"uri":       {isURI, "web address (URI)", "https://…"},
	"date":      {isDate, "date (YYYY-MM-DD)", "YYYY-MM-DD"},
	"date-time": {isDateTime, "date and time (2026-05-01 09:00, or RFC 3339)", "YYYY-MM-DD hh:mm"},
}

// checkFormat reports whether s is a valid instance of format. A format
// followup does not know (only a server's schema has one) is the server's
// to check.
func checkFormat(format, s string) error {
	if ft, known := formats[format]; known && !ft.check(s) {
		return fmt.Errorf("not a valid %s", ft.phrase)
	}
	return nil
}

// formatPhrase names a format as the user types it.
func formatPhrase(format string) string {
	if ft, known := formats[format]; known || format == "" {
		return ft.phrase
	}
	return "format " + SanitizeLine(format)
}

func isDate(s string) bool { _, err := time.Parse(time.DateOnly, s); return err == nil }

// isEmail accepts a bare RFC 5322 addr-spec: no display name, no angle
// brackets, a domain after the one unquoted @.
func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1
}

// isURI accepts an absolute RFC 3986 URI: a scheme, and no spaces or
// control characters.
func isURI(s string) bool {
	if strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && (u.Opaque != "" || u.Host != "" || u.Path != "")
}

// isDateTime accepts an RFC 3339 date-time, with a leap second allowed.
func isDateTime(s string) bool {
	if _, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s)); err == nil {
		return true
	}
	// time.Parse refuses second 60; RFC 3339 allows it.
	if i := strings.Index(s, ":60"); i == 16 {
		_, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s[:i]+":59"+s[i+3:]))
		return err == nil
	}
	return false
}

// localLayouts are the date-times people type: local time, no offset.
var localLayouts = []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// localDateTime reads a date-time typed as people type it
// ("2026-12-24 10:00", local time) and returns it in RFC 3339 with the
// local offset ("2026-12-24T10:00:00+01:00"); ok is false for anything
// else, RFC 3339 included.
func localDateTime(s string) (string, bool) {
	for _, layout := range localLayouts {
		if t, err := time.ParseInLocation(layout, strings.TrimSpace(s), time.Local); err == nil {
			return t.Format(time.RFC3339), true
		}
	}
	return "", false
}

// maxPatternInsts bounds a pattern's compiled program. RE2 matching is
// linear in the input but also in the program, and a short pattern such as
// `(x{1000}){1000}`-like repetition compiles to millions of instructions:
// with a 4,096-character value that would take seconds. Real patterns stay
// far below this bound.
const maxPatternInsts = 2000

// patterns caches compiled patterns: Normalize runs on every submit and
// compiling is the costly part. The cache is cleared when it grows past a
// bound, since patterns come from untrusted declarations.
var patterns struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

func compilePattern(p string) (*regexp.Regexp, error) {
	patterns.Lock()
	re, ok := patterns.m[p]
	patterns.Unlock()
	if ok {
		return re, nil
	}
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err
	}
	// Estimate before compiling: the compile itself is what a nested
	// repetition makes expensive.
	if patternSize(parsed) > maxPatternInsts {
		return nil, fmt.Errorf("pattern is too complex: its repetitions expand past %d steps", maxPatternInsts)
	}
	re, err = regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Lock()
	if patterns.m == nil || len(patterns.m) >= 256 {
		patterns.m = map[string]*regexp.Regexp{}
	}
	patterns.m[p] = re
	patterns.Unlock()
	return re, nil
}

// patternSize over-estimates the compiled size of a parsed pattern,
// saturating just above the limit so nested repetition cannot overflow.
func patternSize(re *syntax.Regexp) int {
	const cap = maxPatternInsts + 1
	sum := func(subs []*syntax.Regexp) int {
		n := len(subs)
		for _, s := range subs {
			n = min(n+patternSize(s), cap)
		}
		return n
	}
	switch re.Op {
	case syntax.OpRepeat:
		times := re.Max
		if times < 0 {
			times = re.Min + 1
		}
		return min(max(times, 1)*sum(re.Sub), cap)
	case syntax.OpLiteral:
		return min(len(re.Rune)+1, cap)
	}
	return min(sum(re.Sub)+1, cap)
}
