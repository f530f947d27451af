package mcp

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// Lookup reads one environment variable; os.LookupEnv in production.
type Lookup func(name string) (string, bool)

// expand replaces ${VAR} and ${VAR:-default} in s, as Claude Code does in .mcp.json. A
// ${VAR} that is not set and has no default is an error: the server would otherwise start
// with an empty secret and fail in a way that is hard to trace back to the config. Text
// outside ${…} — a lone $, $VAR without braces — is kept as written.
func expand(s string, lookup Lookup) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("%q has no closing }", s[i:])
		}
		ref := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !validVarName(name) {
			return "", fmt.Errorf("${%s} is not a variable reference (a name of letters, digits and _)", ref)
		}
		v, ok := lookup(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("${%s} is not set (write ${%s:-} to allow it empty)", name, name)
		}
		s = s[i+end+1:]
	}
}

func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// Secrets are the values a server's ${VAR}s expanded to. What followup shows, stores or
// logs about a server — its state's reason, a call's error, its log — is the
// configuration as written (docs/mcp.md): Hide puts each value back as its ${VAR},
// wherever it appears (a URL's query, a command's path, an error that quotes them).
type Secrets struct{ r *strings.Replacer }

// minSecret is the shortest value hidden: a shorter one would be replaced in every word
// that happens to contain it ("exit status 1").
const minSecret = 4

// recording wraps lookup so that every value it returns is kept in sec, with its ${VAR}.
func recording(lookup Lookup, sec *[][2]string) Lookup {
	return func(name string) (string, bool) {
		v, ok := lookup(name)
		if ok && len(v) >= minSecret {
			for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
				*sec = append(*sec, [2]string{form, "${" + name + "}"})
			}
		}
		return v, ok
	}
}

func newSecrets(pairs [][2]string) Secrets {
	if len(pairs) == 0 {
		return Secrets{}
	}
	// The longest value first: one that contains another is hidden whole.
	sort.SliceStable(pairs, func(i, j int) bool { return len(pairs[i][0]) > len(pairs[j][0]) })
	flat := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		flat = append(flat, p[0], p[1])
	}
	return Secrets{strings.NewReplacer(flat...)}
}

// Hide is text with every secret put back as its ${VAR}.
func (s Secrets) Hide(text string) string {
	if s.r == nil {
		return text
	}
	return s.r.Replace(text)
}

// hideErr is err with its text hidden; errors.Is and As still see err.
func (s Secrets) hideErr(err error) error {
	if err == nil || s.r == nil {
		return err
	}
	if text := s.Hide(err.Error()); text != err.Error() {
		return hiddenError{text, err}
	}
	return err
}

type hiddenError struct {
	text string
	err  error
}

func (e hiddenError) Error() string { return e.text }
func (e hiddenError) Unwrap() error { return e.err }
