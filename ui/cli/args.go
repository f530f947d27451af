// Package cli is followup's headless command line: the same chat host as
// the UI, driven from scripts, with text or --json output (docs/cli.md).
// Every command is one entry of the table in table.go.
package cli

import (
	"fmt"
	"strings"

	"followup/forms"
)

// Args is a parsed command line. Flags may stand before or after the
// subcommand's arguments.
type Args struct {
	// Command is the table's name of the command ("ask", "mcp list"), or
	// "" for the chat screen.
	Command    string
	Positional []string
	// Flags holds every flag given but the global switches below; a switch
	// given holds "true".
	Flags   map[string]string
	JSON    bool
	Help    bool
	Version bool
}

// Has reports whether a flag was given.
func (a Args) Has(name string) bool {
	_, ok := a.Flags[name]
	return ok
}

// UsageError is a malformed command line (exit 2). Details, when set, go
// into the JSON error beside the usage.
type UsageError struct {
	Msg     string
	Details map[string]any
}

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) *UsageError {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// flagTakesValue says, for every flag of the table, whether it takes a
// value; the parser needs it before it knows the command, since flags may
// come first.
func flagTakesValue() map[string]bool {
	m := map[string]bool{"h": false}
	for _, f := range globalFlags {
		m[f.Name] = f.Value != ""
	}
	for _, c := range commands {
		for _, f := range c.Flags {
			m[f.Name] = f.Value != ""
		}
	}
	return m
}

// Parse reads the command line (without the program name). On an error
// the Args still name the command when one was found, so that the error
// can print that command's usage.
func Parse(argv []string) (Args, error) {
	a := Args{Flags: map[string]string{}}
	kinds := flagTakesValue()
	var words []string
	var first error
	fail := func(err error) {
		if first == nil {
			first = err
		}
	}
	for i := 0; i < len(argv); i++ {
		s := argv[i]
		if s == "--" {
			words = append(words, argv[i+1:]...)
			break
		}
		if !strings.HasPrefix(s, "-") || s == "-" {
			words = append(words, s)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(s, "-"), "=")
		takesValue, known := kinds[name]
		switch {
		case !known:
			fail(usagef("unknown flag %s", s))
		case !takesValue:
			if hasVal {
				fail(usagef("flag --%s takes no value", name))
				continue
			}
			switch name {
			case "json":
				a.JSON = true
			case "help", "h":
				a.Help = true
			case "version":
				a.Version = true
			default:
				a.Flags[name] = "true"
			}
		default:
			if !hasVal {
				if i+1 >= len(argv) {
					fail(usagef("flag --%s needs a value", name))
					continue
				}
				if next := argv[i+1]; strings.HasPrefix(next, "-") && next != "-" {
					// Another flag, not this one's value (--chat --json).
					fail(usagef("flag --%s needs a value, not %s (a value that starts with - is written --%s=VALUE)", name, next, name))
					continue
				}
				i++
				val = argv[i]
			}
			if val == "" {
				// An unset shell variable ("--db $DB") must not mean the
				// default: the default database is the user's real chats.
				fail(usagef("flag --%s is empty; give it a value or leave the flag out", name))
				continue
			}
			a.Flags[name] = val
		}
	}
	if len(words) > 0 {
		a.Command, a.Positional = words[0], words[1:]
		if lookup(a.Command) == nil && isGroup(a.Command) && len(a.Positional) > 0 {
			a.Command, a.Positional = a.Command+" "+a.Positional[0], a.Positional[1:]
		}
	}
	return a, first
}

// Check validates the command line against the command's table entry:
// the command exists, its arguments and flags are the ones it takes.
// With --help or --version only the command's name is checked.
func (a Args) Check() error {
	if a.Command == "" {
		for f := range a.Flags {
			if !isGlobal(f) {
				return usagef("--%s goes with a command; see followup help", f)
			}
		}
		if a.JSON && !a.Help && !a.Version {
			return usagef("--json goes with a command, as in followup pending --json; without one followup opens the chat screen")
		}
		return nil
	}
	c := lookup(a.Command)
	if c == nil {
		if isGroup(a.Command) {
			if a.Help {
				return nil
			}
			return usagef("%s needs a subcommand: %s", a.Command, strings.Join(groupNames(a.Command), ", "))
		}
		return usagef("unknown command %q", a.Command)
	}
	if a.Help || a.Version {
		return nil
	}
	min, max := arity(c.Args)
	switch n := len(a.Positional); {
	case n < min:
		return usagef("%s needs %s", c.Name, strings.Join(c.Args[n:min], " "))
	case max >= 0 && n > max:
		return usagef("%s takes %s, got %d %s: %s", c.Name, argsPhrase(c.Args), n, forms.Plural(n, "argument", "arguments"),
			strings.Join(quoteAll(a.Positional), " "))
	}
	for f := range a.Flags {
		if !isGlobal(f) && c.flag(f) == nil {
			return usagef("%s does not take --%s", c.Name, f)
		}
	}
	chosen := map[string]string{}
	for _, f := range c.Flags {
		if f.Choice != "" && a.Has(f.Name) {
			if other, ok := chosen[f.Choice]; ok {
				return usagef("--%s and --%s cannot go together", other, f.Name)
			}
			chosen[f.Choice] = f.Name
		}
	}
	for _, f := range c.Flags {
		switch {
		case !f.Required:
		case f.Choice != "" && chosen[f.Choice] == "":
			return usagef("%s needs %s", c.Name, choiceSynopsis(c, f.Choice))
		case f.Choice == "" && !a.Has(f.Name):
			return usagef("%s needs --%s", c.Name, f.Name)
		}
	}
	if c.Check != nil {
		return c.Check(a)
	}
	return nil
}

// nonEmptyArg refuses an empty first argument (ask "" is a slip, not a
// message).
func nonEmptyArg(what string) func(Args) error {
	return func(a Args) error {
		if strings.TrimSpace(a.Positional[0]) == "" {
			return usagef("%s is empty", what)
		}
		return nil
	}
}

func lookup(name string) *Command {
	for i := range commands {
		if commands[i].Name == name {
			return &commands[i]
		}
	}
	return nil
}

// isGroup reports whether name is the first word of two-word commands.
func isGroup(name string) bool { return len(groupNames(name)) > 0 }

func groupNames(group string) []string {
	var out []string
	for _, c := range commands {
		if g, sub, ok := strings.Cut(c.Name, " "); ok && g == group {
			out = append(out, sub)
		}
	}
	return out
}

func isGlobal(name string) bool {
	for _, f := range globalFlags {
		if f.Name == name {
			return true
		}
	}
	return false
}

func (c *Command) flag(name string) *Flag {
	for i := range c.Flags {
		if c.Flags[i].Name == name {
			return &c.Flags[i]
		}
	}
	return nil
}

// arity is the least and most positional arguments of placeholders (max
// is -1 for any number).
func arity(args []string) (min, max int) {
	for _, p := range args {
		if strings.HasSuffix(p, "...]") {
			return min, -1
		}
		if !strings.HasPrefix(p, "[") {
			min++
		}
	}
	return min, len(args)
}

func argsPhrase(args []string) string {
	min, max := arity(args)
	switch {
	case max == 0:
		return "no arguments"
	case min == max:
		return strings.Join(args, " ")
	default:
		return fmt.Sprintf("at most %d %s (%s)", max, forms.Plural(max, "argument", "arguments"), strings.Join(args, " "))
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
