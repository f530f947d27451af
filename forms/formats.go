package forms

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// formatSchemas holds one compiled {"format": f} schema per known format:
// jsonschema's checkers follow the RFCs (email local parts, IPv6 literals,
// leap seconds) more closely than a hand-written check would.
var formatSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	out := map[string]*jsonschema.Schema{}
	for _, f := range Formats {
		url := "mem:///format/" + f + ".json"
		if err := c.AddResource(url, map[string]any{"type": "string", "format": f}); err != nil {
			panic(err) // static input: cannot fail
		}
		out[f] = c.MustCompile(url)
	}
	return out
})

// checkFormat reports whether s is a valid instance of a known format.
func checkFormat(format, s string) error {
	sch, ok := formatSchemas()[format]
	if !ok {
		return fmt.Errorf("unknown format %q", format)
	}
	if err := sch.Validate(s); err != nil {
		return fmt.Errorf("not a valid %s", formatNoun(format))
	}
	return nil
}

func formatNoun(format string) string {
	switch format {
	case "email":
		return "email address"
	case "uri":
		return "URI"
	case "date":
		return "date (YYYY-MM-DD)"
	case "date-time":
		return "date and time (RFC 3339, e.g. 2026-05-01T09:00:00Z)"
	}
	return format
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
