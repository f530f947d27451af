package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Synopsis is the one-line usage of a command, derived from its table
// entry: "followup answer REQUEST_ID --values-json JSON [--digest D] …".
func (c *Command) Synopsis() string {
	parts := append([]string{"followup", c.Name}, c.Args...)
	done := map[string]bool{}
	for _, f := range c.Flags {
		if f.Choice != "" {
			if done[f.Choice] {
				continue
			}
			done[f.Choice] = true
			s := choiceSynopsis(c, f.Choice)
			if !f.Required {
				s = "[" + s + "]"
			}
			parts = append(parts, s)
			continue
		}
		s := "--" + f.Name
		if f.Value != "" {
			s += " " + f.Value
		}
		if !f.Required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// choiceSynopsis is "--accept|--reject".
func choiceSynopsis(c *Command, choice string) string {
	var names []string
	for _, f := range c.Flags {
		if f.Choice == choice {
			names = append(names, "--"+f.Name)
		}
	}
	return strings.Join(names, "|")
}

// Usage is followup's whole usage: what `followup help` and `--help` print.
func Usage() string {
	var b strings.Builder
	b.WriteString("followup — an agent that asks follow-up questions as forms\n\nusage:\n")
	b.WriteString("  followup [GLOBAL FLAGS]                 the chat screen\n")
	b.WriteString("  followup COMMAND [ARGUMENTS] [FLAGS]    one command, no screen\n")
	// One column for every group, so the list reads as one table.
	var rows [][2]string
	for _, c := range commands {
		rows = append(rows, [2]string{strings.Join(append([]string{c.Name}, c.Args...), " "), c.Summary})
	}
	w := tableWidth(rows)
	for i := 0; i < len(commands); {
		j := i
		for j < len(commands) && commands[j].Group == commands[i].Group {
			j++
		}
		heading := commands[i].Group
		if heading == "" {
			heading = "commands"
		}
		fmt.Fprintf(&b, "\n%s:\n", heading)
		tableAt(&b, rows[i:j], w)
		i = j
	}
	b.WriteString("\nglobal flags (before or after the command):\n")
	flagTable(&b, globalFlags)
	b.WriteString("\nexit codes: 0 ok, 1 refused or the run failed, 2 usage error\n")
	b.WriteString("followup help COMMAND prints a command's flags and an example;\n")
	b.WriteString("a message that starts with \"-\" goes after \"--\":  followup ask -- \"-5 degrees outside\"\n")
	return b.String()
}

// CommandUsage is what `followup help NAME` and `followup NAME --help`
// print: the synopsis, the summary, the flags and an example. NAME may be
// a group ("mcp"), which lists its commands.
func CommandUsage(name string) string {
	var b strings.Builder
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(&b, "usage: followup %s SUBCOMMAND\n\nsubcommands:\n", name)
		var rows [][2]string
		for _, sub := range groupNames(name) {
			sc := lookup(name + " " + sub)
			rows = append(rows, [2]string{strings.Join(append([]string{sc.Name}, sc.Args...), " "), sc.Summary})
		}
		table(&b, rows)
		fmt.Fprintf(&b, "\nfollowup help %s SUBCOMMAND prints one of them\n", name)
		return b.String()
	}
	fmt.Fprintf(&b, "usage: %s\n\n%s\n", c.Synopsis(), sentence(c.Summary))
	own := append(append([]Flag{}, c.Flags...), Flag{Name: "json", Help: "print exactly one JSON document on stdout, errors included"})
	b.WriteString("\nflags:\n")
	flagTable(&b, own)
	b.WriteString("global flags: --db PATH, --provider NAME, --model NAME, … (followup help lists them)\n")
	if c.Example != "" {
		fmt.Fprintf(&b, "\nexample:\n  %s\n", c.Example)
	}
	return b.String()
}

// shortUsage is what a usage error shows after its one line: the
// synopsis of the command it names (or of followup) and where to read
// more.
func shortUsage(a Args) (synopsis, more string) {
	if c := lookup(a.Command); c != nil {
		return c.Synopsis(), "followup help " + c.Name + " for more"
	}
	if isGroup(a.Command) {
		return "followup " + a.Command + " SUBCOMMAND", "subcommands: " + strings.Join(groupNames(a.Command), ", ")
	}
	return "followup [GLOBAL FLAGS] [COMMAND [ARGUMENTS] [FLAGS]]", "followup help lists the commands and flags"
}

// help is `followup help [COMMAND [SUBCOMMAND]]`.
func help(ctx context.Context, c *Call) error {
	name := strings.Join(c.Args.Positional, " ")
	text := Usage()
	if name != "" {
		text = CommandUsage(name)
	}
	c.OK(map[string]any{"command": name, "usage": text}, func(w io.Writer) { io.WriteString(w, text) })
	return nil
}

// helpCheck refuses help for a command that does not exist.
func helpCheck(a Args) error {
	name := strings.Join(a.Positional, " ")
	if name == "" || lookup(name) != nil || (len(a.Positional) == 1 && isGroup(name)) {
		return nil
	}
	return usagef("unknown command %q", name)
}

func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// table writes two columns, the second wrapped at 80 columns; a first
// column wider than 24 takes its own line.
func table(b *strings.Builder, rows [][2]string) { tableAt(b, rows, tableWidth(rows)) }

// tableWidth is the first column's width: its widest entry of at most 24.
func tableWidth(rows [][2]string) int {
	w := 0
	for _, r := range rows {
		if n := len([]rune(r[0])); n <= 24 {
			w = max(w, n)
		}
	}
	return w
}

// tableAt is table with the first column w wide.
func tableAt(b *strings.Builder, rows [][2]string, w int) {
	for _, r := range rows {
		n := len([]rune(r[0]))
		if n > w {
			b.WriteString("  " + r[0] + "\n")
			writeWrapped(b, strings.Repeat(" ", w+4), r[1])
			continue
		}
		writeWrapped(b, "  "+r[0]+strings.Repeat(" ", w-n)+"  ", r[1])
	}
}

func flagTable(b *strings.Builder, fs []Flag) {
	rows := make([][2]string, len(fs))
	for i, f := range fs {
		rows[i][0] = "--" + f.Name
		if f.Value != "" {
			rows[i][0] += " " + f.Value
		}
		rows[i][1] = f.Help
	}
	table(b, rows)
}

// writeWrapped writes lead then text, wrapped at 80 columns under itself.
func writeWrapped(b *strings.Builder, lead, text string) {
	indent := len([]rune(lead))
	b.WriteString(lead)
	col := indent
	for i, word := range strings.Fields(text) {
		n := len([]rune(word))
		if i > 0 && col+1+n > 80 {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = indent
		} else if i > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(word)
		col += n
	}
	b.WriteString("\n")
}
