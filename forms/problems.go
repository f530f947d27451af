package forms

import (
	"fmt"
	"strconv"
)

// MaxProblems bounds a problem list (docs/behaviour.md): a hostile input with
// 100,000 unknown keys gets the first 50 problems and a count of the rest,
// not a megabyte of them, and the rest are counted without being built.
const MaxProblems = 50

// problems collects Problems; every check adds and goes on, so that an
// input's problems are all reported at once — the first MaxProblems
// listed, the others counted.
type problems struct {
	list []Problem
	more int             // found past the bound
	told map[string]bool // paths with a problem already, listed or not
	// server: the schema is an MCP server's, answered as sent
	// (docs/mcp.md): property names that are not field names are
	// renamed, not refused; an enum may have up to MaxServerOptions
	// options; a string of a format followup does not know is asked as
	// text with its format named, and left for the server to check.
	server bool
}

func (p *problems) add(path, format string, args ...any) {
	p.tell(path)
	if len(p.list) >= MaxProblems {
		p.more++
		return
	}
	p.list = append(p.list, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// tell records that path's problem is told: by a problem added there,
// or by one that makes it moot (a property whose $ref is refused has no
// type to complain of). A rule checked later asks toldAt and stays quiet,
// so one mistake is one problem.
func (p *problems) tell(path string) {
	if p.told == nil {
		p.told = map[string]bool{}
	}
	p.told[path] = true
}

// toldAt reports that path's problem is already told.
func (p *problems) toldAt(path string) bool { return p.told[path] }

// found is how many problems were found, listed or not.
func (p *problems) found() int { return len(p.list) + p.more }

// merge adds a list another collector returned, its count included.
func (p *problems) merge(ps []Problem) {
	for _, q := range ps {
		if q.More == 0 {
			p.tell(q.Path)
		}
		switch {
		case q.More > 0:
			p.more += q.More
		case len(p.list) >= MaxProblems:
			p.more++
		default:
			p.list = append(p.list, q)
		}
	}
}

// result is the list to return: nil when there is none, and a last entry
// counting the problems not listed when there were more than MaxProblems.
func (p *problems) result() []Problem {
	if p.more == 0 {
		return p.list
	}
	return append(p.list[:len(p.list):len(p.list)], Problem{Path: "",
		Message: "and " + grouped(p.more) + " more problems, not listed", More: p.more})
}

// grouped writes n with thousands separators: 99,950.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
