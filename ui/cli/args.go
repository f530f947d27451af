// Package cli is followup's headless command line: the same chat host as
// the UI, driven from scripts, with text or --json output (DESIGN §10).
package cli

import (
	"fmt"
	"strings"
)

// Args is a parsed command line. Flags may stand before or after the
// subcommand's arguments.
type Args struct {
	Command    string
	Positional []string
	Flags      map[string]string
	JSON       bool
	Help       bool
}

// valueFlags take a value; boolFlags do not.
var valueFlags = map[string]bool{
	"db": true, "provider": true, "model": true, "chat": true, "command-id": true,
	"values-json": true, "digest": true, "questions": true, "reply-size": true,
}

var boolFlags = map[string]bool{"json": true, "help": true, "h": true}

// UsageError is a malformed command line (exit 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Parse reads the command line (without the program name).
func Parse(argv []string) (Args, error) {
	a := Args{Flags: map[string]string{}}
	for i := 0; i < len(argv); i++ {
		s := argv[i]
		if s == "--" {
			a.Positional = append(a.Positional, argv[i+1:]...)
			break
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			if a.Command == "" {
				a.Command = s
			} else {
				a.Positional = append(a.Positional, s)
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(s, "-"), "=")
		switch {
		case boolFlags[name]:
			if hasVal {
				return a, &UsageError{fmt.Sprintf("flag --%s takes no value", name)}
			}
			if name == "json" {
				a.JSON = true
			} else {
				a.Help = true
			}
		case valueFlags[name]:
			if !hasVal {
				if i+1 >= len(argv) {
					return a, &UsageError{fmt.Sprintf("flag --%s needs a value", name)}
				}
				if next := argv[i+1]; strings.HasPrefix(next, "-") && next != "-" {
					// Another flag, not this one's value (--chat --json).
					return a, &UsageError{fmt.Sprintf("flag --%s needs a value, not %s (a value that starts with - is written --%s=VALUE)", name, next, name)}
				}
				i++
				val = argv[i]
			}
			a.Flags[name] = val
		default:
			return a, &UsageError{fmt.Sprintf("unknown flag %s", s)}
		}
	}
	return a, nil
}

// Usage is the help text.
const Usage = `followup — an agent that asks follow-up questions as forms

usage:
  followup [--db PATH] [--provider offline|openai|anthropic] [--model NAME]   open the chat UI
  followup ask MESSAGE [--chat ID] [--command-id ID]
  followup pending [--chat ID]
  followup show REQUEST_ID
  followup answer REQUEST_ID --values-json JSON [--digest D] [--command-id ID]
  followup cancel REQUEST_ID [--command-id ID]
  followup stop RUN_ID
  followup resume RUN_ID
  followup inspect CHAT_OR_RUN_ID
  followup chats
  followup archive CHAT_ID
  followup delete CHAT_ID
  followup validate-input FILE|-

global flags:
  --db PATH         database file (env FOLLOWUP_DB; default $XDG_DATA_HOME/followup/followup.db)
  --provider NAME   offline (default), openai or anthropic (env FOLLOWUP_PROVIDER)
  --model NAME      model name (env FOLLOWUP_MODEL)
  --json            print exactly one JSON document
exit codes: 0 ok, 1 refused or run failed, 2 usage error
a message that starts with "-" goes after "--":  followup ask -- "-5 degrees outside"
`

// commands lists each subcommand with its positional arity and flags.
var commands = map[string]struct {
	args  int
	flags []string
}{
	"ask":            {1, []string{"chat", "command-id"}},
	"pending":        {0, []string{"chat"}},
	"show":           {1, nil},
	"answer":         {1, []string{"values-json", "digest", "command-id"}},
	"cancel":         {1, []string{"command-id"}},
	"stop":           {1, []string{"command-id"}},
	"resume":         {1, nil},
	"inspect":        {1, nil},
	"chats":          {0, nil},
	"archive":        {1, []string{"command-id"}},
	"delete":         {1, []string{"command-id"}},
	"validate-input": {1, nil},
}

var globalFlags = map[string]bool{"db": true, "provider": true, "model": true, "questions": true, "reply-size": true}

// Check validates a subcommand's arity and flags.
func (a Args) Check() error {
	c, ok := commands[a.Command]
	if !ok {
		return &UsageError{fmt.Sprintf("unknown command %q", a.Command)}
	}
	if len(a.Positional) != c.args {
		return &UsageError{fmt.Sprintf("%s takes %d argument(s), got %d", a.Command, c.args, len(a.Positional))}
	}
	for f := range a.Flags {
		if globalFlags[f] {
			continue
		}
		allowed := false
		for _, g := range c.flags {
			allowed = allowed || g == f
		}
		if !allowed {
			return &UsageError{fmt.Sprintf("%s does not take --%s", a.Command, f)}
		}
	}
	if a.Command == "answer" && a.Flags["values-json"] == "" {
		return &UsageError{"answer needs --values-json"}
	}
	return nil
}
