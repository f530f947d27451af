// Package cli is followup's headless command line: the same chat host as
// the UI, driven from scripts, with text or --json output (docs/cli.md).
// Every command is one entry of the table in commands.go; the cobra command
// tree, its help, completion and manual pages are made from the table.
package cli

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"followup/forms"
)

// Args is a parsed command line, as a command's table entry sees it.
type Args struct {
	// Command is the table's name of the command ("ask", "mcp list"), or
	// "" for the chat screen.
	Command    string
	Positional []string
	flags      *pflag.FlagSet
}

// Has reports whether a flag was given (a switch set to false was not).
func (a Args) Has(name string) bool {
	f := a.flags.Lookup(name)
	return f != nil && f.Changed && f.Value.String() != "false"
}

// Flag is the value of a flag ("" when absent); a repeated flag's values
// are split by NUL.
func (a Args) Flag(name string) string {
	if !a.Has(name) {
		return ""
	}
	return a.flags.Lookup(name).Value.String()
}

// Arg is the i-th positional argument ("" when absent).
func (a Args) Arg(i int) string {
	if i < len(a.Positional) {
		return a.Positional[i]
	}
	return ""
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

// text is the value of a flag that takes one. An empty value is refused:
// an unset shell variable ("--db $DB") must not mean the default, for the
// default database is the user's real chats. Its type is the placeholder
// the help shows ("--chat ID"); a repeated flag's values are kept apart by
// NUL, which no path or argument can hold.
type text struct {
	v, placeholder string
	repeat         bool
}

func (t *text) Set(s string) error {
	if s == "" {
		return errors.New("is empty; give it a value or leave the flag out")
	}
	if t.repeat && t.v != "" {
		s = t.v + "\x00" + s
	}
	t.v = s
	return nil
}
func (t *text) String() string { return t.v }
func (t *text) Type() string   { return t.placeholder }

func addFlags(fs *pflag.FlagSet, flags []Flag) {
	fs.SortFlags = false
	for _, f := range flags {
		if f.Value == "" {
			fs.Bool(f.Name, false, f.Help)
		} else {
			fs.Var(&text{placeholder: f.Value, repeat: f.Repeat}, f.Name, f.Help)
		}
	}
}

// newRoot makes the command tree of the table: one cobra command per
// entry, under a parent for each group of two-word names ("mcp"), with
// the entry's flags and checks; run runs an entry (nil for the chat
// screen) on its parsed arguments.
func newRoot(env Env, argv []string, run func(cmd *cobra.Command, c *Command, a Args) error) *cobra.Command {
	cobra.EnableCommandSorting = false // the table's order
	root := &cobra.Command{
		Use:   "followup [flags]",
		Short: "an agent that asks follow-up questions as forms",
		Long: "followup is a terminal chat in which an AI agent asks follow-up questions as forms.\n" +
			"With no command it opens the chat screen; a command does one thing on the same\n" +
			"database and exits. Flags go before or after the command.\n\n" +
			"Exit codes: 0 ok, 1 refused or the run failed, 2 usage error.\n" +
			`A message that starts with "-" goes after "--": followup ask -- "-5 degrees outside"`,
		Args: noCommand, SilenceErrors: true, SilenceUsage: true, DisableFlagsInUseLine: true, DisableAutoGenTag: true,
		SuggestionsMinimumDistance: 2,
		RunE: func(cmd *cobra.Command, args []string) error {
			a := Args{Positional: args, flags: cmd.Flags()}
			if err := flagValues(a, argv); err != nil {
				return err
			}
			return run(cmd, nil, a)
		},
	}
	root.SetArgs(append([]string{}, argv...)) // never nil: cobra would read os.Args
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		json, _ := cmd.Flags().GetBool("json")
		printHelp(cmd, &printer{json: json, w: env.Stdout})
	})
	root.Flags().SortFlags = false
	addFlags(root.PersistentFlags(), globalFlags)
	root.PersistentFlags().BoolP("help", "h", false, "print the usage of the command")
	root.Flags().AddFlagSet(root.PersistentFlags()) // listed first
	root.Flags().Bool("version", false, "print followup's version")
	parents, group := map[string]*cobra.Command{"": root}, ""
	for i := range commands {
		c := &commands[i]
		group = cmp.Or(c.Group, "commands")
		if !root.ContainsGroup(group) {
			root.AddGroup(&cobra.Group{ID: group, Title: group + ":"})
		}
		g, _, _ := strings.Cut(c.Name, " ")
		if g == c.Name {
			g = ""
		}
		parent := parents[g]
		if parent == nil {
			parent = &cobra.Command{Use: g, GroupID: group, Args: noCommand, SuggestionsMinimumDistance: 2, DisableFlagsInUseLine: true,
				Short: "the " + g + " commands", Long: fmt.Sprintf("The %s commands.", g), RunE: needsSubcommand}
			parents[g] = parent
			root.AddCommand(parent)
		}
		cmd := &cobra.Command{
			Use:   strings.TrimPrefix(c.Synopsis(), parent.CommandPath()+" "),
			Short: c.Summary, Long: strings.ToUpper(c.Summary[:1]) + c.Summary[1:] + ".", Example: "  " + c.Example,
			DisableFlagsInUseLine: true,
			Args:                  func(_ *cobra.Command, args []string) error { return c.checkArity(args) },
			RunE: func(cmd *cobra.Command, args []string) error {
				a := Args{Command: c.Name, Positional: args, flags: cmd.Flags()}
				if err := c.check(a, argv); err != nil {
					return err
				}
				return run(cmd, c, a)
			},
		}
		if parent == root {
			cmd.GroupID = group
		}
		cmd.ValidArgsFunction = completeArg(c)
		addFlags(cmd.Flags(), c.Flags)
		if cmd.Flags().Lookup("chat") != nil {
			cmd.RegisterFlagCompletionFunc("chat", func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return idsFor(cmd, "CHAT_ID", c.Name), cobra.ShellCompDirectiveNoFileComp
			})
		}
		for _, names := range choices(c) { // never two of them (check: one)
			cmd.MarkFlagsMutuallyExclusive(names...)
		}
		parent.AddCommand(cmd)
		if parent == root {
			parents[c.Name] = cmd // a command can be a group too ("skills show")
		}
		if c.Name == "help" {
			root.SetHelpCommand(cmd)
		}
	}
	root.InitDefaultCompletionCmd()
	// cobra's completion command is a group too: an unknown shell is a usage
	// error, not its help and exit 0.
	completion, _, _ := root.Find([]string{"completion"})
	completion.Args, completion.RunE, completion.SuggestionsMinimumDistance = noCommand, needsSubcommand, 2
	return root
}

// needsSubcommand refuses a group named without one of its commands.
func needsSubcommand(cmd *cobra.Command, _ []string) error {
	return usagef("%s needs a subcommand: %s", cmd.Name(), strings.Join(subcommands(cmd), ", "))
}

// noCommand refuses a word where a command was expected, suggesting the
// nearest ones.
func noCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	path := strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), "followup")+" ", " ")
	err := usagef("unknown command %q", path+args[0])
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		err.Msg += fmt.Sprintf("; did you mean %s%s?", path, strings.Join(near, " or "+path))
	}
	return err
}

func subcommands(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	return names
}

// checkArity refuses too few or too many arguments.
func (c *Command) checkArity(args []string) error {
	min, max := arity(c.Args)
	switch n := len(args); {
	case n < min:
		return usagef("%s needs %s", c.Name, strings.Join(c.Args[n:min], " "))
	case max >= 0 && n > max:
		quoted := fmt.Sprintf("%q", args) // ["a" "b"]
		return usagef("%s takes %s, got %d %s: %s", c.Name, cmp.Or(strings.Join(c.Args, " "), "no arguments"), n,
			forms.Plural(n, "argument", "arguments"), quoted[1:len(quoted)-1])
	}
	return nil
}

// check validates what the table says of the flags beyond what cobra
// checks: a value is no flag, the required flags, one of each choice and
// the entry's own rules. A switch given as --accept=false is not given
// (Has), so it is no choice: cobra's one-required group would count it.
func (c *Command) check(a Args, argv []string) error {
	if err := flagValues(a, argv); err != nil {
		return err
	}
	for _, names := range choices(c) {
		if !slices.ContainsFunc(names, a.Has) {
			return usagef("%s needs --%s", c.Name, strings.Join(names, "|--"))
		}
	}
	for _, f := range c.Flags {
		if f.Required && !a.Has(f.Name) {
			return usagef("%s needs --%s", c.Name, f.Name)
		}
	}
	if c.Check != nil {
		return c.Check(a)
	}
	return nil
}

// flagValues refuses a flag whose value is the next flag (--chat --json):
// a value that starts with - is written --chat=VALUE.
func flagValues(a Args, argv []string) (err error) {
	a.flags.Visit(func(f *pflag.Flag) {
		name, v := f.Name, f.Value.String()
		if err == nil && strings.HasPrefix(v, "-") && v != "-" && !slices.Contains(argv, "--"+name+"="+v) {
			err = usagef("flag --%s needs a value, not %s (a value that starts with - is written --%s=VALUE)", name, v, name)
		}
	})
	return err
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
	if i := slices.IndexFunc(commands, func(c Command) bool { return c.Name == name }); i >= 0 {
		return &commands[i]
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

// Synopsis is the one-line usage of a command, derived from its table
// entry: "followup answer REQUEST_ID --values-json JSON [--digest D] …".
func (c *Command) Synopsis() string {
	parts := append([]string{"followup", c.Name}, c.Args...)
	choices := choices(c)
	for _, f := range c.Flags {
		s := "--" + f.Name
		switch names := choices[f.Choice]; {
		case f.Choice != "" && names[0] == f.Name:
			s = "--" + strings.Join(names, "|--")
		case f.Choice != "":
			continue
		case f.Value != "":
			s += " " + f.Value
		}
		if !f.Required && f.Choice == "" {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// choices are the names of each set of switches of which one is given.
func choices(c *Command) map[string][]string {
	m := map[string][]string{}
	for _, f := range c.Flags {
		if f.Choice != "" {
			m[f.Choice] = append(m[f.Choice], f.Name)
		}
	}
	return m
}
