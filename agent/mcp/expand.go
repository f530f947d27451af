package mcp

import (
	"fmt"
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
