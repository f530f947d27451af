package cli

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"followup/agent"
	"followup/agent/mcp"
	"followup/agent/skills"
	"followup/chat"
	"followup/forms"

	// Settles the terminal's background before Bubble Tea's initialiser
	// can query it: a headless command never queries the terminal.
	_ "followup/ui/cli/quietterm"
)

// UI opens the chat screen on the database o names; Main calls it when no
// subcommand is given.
type UI func(ctx context.Context, o chat.Options) error

// Main is the whole command line: it parses argv and runs the command its
// table entry names (opening the database first when the command needs
// it), or the UI when there is none, and returns the exit code (0 ok,
// 1 refused or failed, 2 usage).
func Main(argv []string, stdin io.Reader, stdout, stderr io.Writer, ui UI) int {
	return run(context.Background(), argv, Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}, ui)
}

func run(ctx context.Context, argv []string, env Env, ui UI) int {
	code := 0
	root := newRoot(env, argv, func(cmd *cobra.Command, c *Command, a Args) (err error) {
		code, err = execute(ctx, cmd, c, a, env, ui)
		return err
	})
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		return usageFailed(cmd, argv, err, env.Stdout, env.Stderr)
	}
	return code
}

// execute runs a command, or the chat screen (c nil), on its checked
// command line; the error it returns is a usage error.
func execute(ctx context.Context, cmd *cobra.Command, c *Command, a Args, env Env, ui UI) (int, error) {
	out := &printer{json: a.Has("json"), w: env.Stdout}
	switch {
	case c == nil && a.Has("version"):
		b := ReadBuild()
		out.ok(b, b.text)
		return 0, nil
	case c == nil && a.Has("json"):
		return 0, usagef("--json goes with a command, as in followup pending --json; without one followup opens the chat screen")
	case c != nil && (!c.NeedsDB || env.Service != nil):
		return execWith(ctx, cmd, c, a, env, out)
	}
	opts, err := Options(a)
	var refused *chat.Error // a named file that cannot be used; else a usage error
	if errors.As(err, &refused) {
		return out.finish(err, env.Stderr), nil
	} else if err != nil {
		return 0, err
	}
	if c == nil {
		if ui == nil {
			return 0, usagef("no command given")
		}
		if !hasTerminal(env.Stdin) {
			return 0, usagef("the chat screen needs a terminal; run a command instead (followup help)")
		}
		if os.Getenv("TERM") == "dumb" {
			// It would draw a screen of cursor moves into a buffer that
			// shows them as text (an editor's shell, a pipe to a pager).
			return 0, usagef("the chat screen needs a terminal that can move its cursor, and TERM=dumb says this one cannot; run a command instead (followup help)")
		}
		// The UI opens the database itself, while it takes over the
		// terminal, and handles ctrl+c itself.
		paceCollector(time.Second)
		if err := ui(ctx, opts); err != nil {
			fmt.Fprintf(env.Stderr, "followup: %v\n", err)
			return 1, nil
		}
		return 0, nil
	}
	reportMCPProblems(a, opts, env.Stderr)
	reportSkillProblems(opts, env.Stderr)
	ctx, stop := interruptible(ctx, out, env.Stderr)
	defer stop()
	svc, err := chat.Open(ctx, opts)
	if err != nil {
		// chat.AsError names what is wrong (unavailable, read-only, busy).
		return out.finish(asInterrupted(ctx, err), env.Stderr), nil
	}
	defer svc.Close()
	env.Service = svc
	return execWith(ctx, cmd, c, a, env, out)
}

// CodeUsage is the error code of a malformed command line (exit 2).
const CodeUsage = "USAGE"

// usageFailed reports a malformed command line: one line saying what is
// wrong and the usage of the command it names (not the whole usage), or,
// with --json, one JSON document with both. Exit 2.
func usageFailed(cmd *cobra.Command, argv []string, err error, stdout, stderr io.Writer) int {
	synopsis, more := cmd.UseLine(), "followup help "+strings.TrimPrefix(cmd.CommandPath(), "followup ")+" for more"
	if !cmd.HasParent() {
		more = "followup help lists the commands and flags"
	} else if cmd.HasAvailableSubCommands() {
		synopsis = cmd.CommandPath() + " COMMAND" // the message names the commands
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	if args, _, _ := strings.Cut(strings.Join(argv, "\x00"), "\x00--\x00"); slices.Contains(strings.Split(args, "\x00"), "--json") {
		e := &chat.Error{Code: CodeUsage, Message: msg, Details: map[string]any{"usage": synopsis}}
		if ue, ok := err.(*UsageError); ok {
			for k, v := range ue.Details {
				e.Details[k] = v
			}
		}
		fmt.Fprintln(stdout, string(chat.ErrorJSON(e)))
		return 2
	}
	fmt.Fprintf(stderr, "followup: %s\nusage: %s\n(%s)\n", forms.SanitizeLine(msg), synopsis, more)
	return 2
}

// printHelp prints cobra's help of cmd: what it does, then its usage.
func printHelp(cmd *cobra.Command, out *printer) {
	text := cmd.Long + "\n\n" + cmd.UsageString()
	name := strings.TrimPrefix(strings.TrimPrefix(cmd.CommandPath(), "followup"), " ")
	out.ok(map[string]any{"command": name, "usage": text}, func(w io.Writer) { io.WriteString(w, text) })
}

// findCommand is the command the arguments name, for help and man.
func findCommand(c *Call) (*cobra.Command, error) {
	cmd, rest, err := c.cmd.Root().Find(c.Args.Positional)
	if err != nil {
		return nil, usagef("unknown command %q", strings.Join(c.Args.Positional, " "))
	}
	return cmd, noCommand(cmd, rest)
}

// help is `followup help [COMMAND [SUBCOMMAND]]`.
func help(ctx context.Context, c *Call) error {
	cmd, err := findCommand(c)
	if err == nil {
		printHelp(cmd, c.out)
	}
	return err
}

// manPages are the manual pages of followup and of each command, in roff,
// made from the cobra command tree by cobra/doc; TestManPagesAreCurrent
// fails when the table has changed since, and `go test ./ui/cli -run
// TestManPagesAreCurrent -update-man` writes them again. They are kept made
// rather than made at each `followup man` so that the markdown renderer
// cobra/doc needs is not in the binary: its initialisation cost every
// start of every command about 3 ms (docs/performance.md).
//
//go:embed man
var manPages embed.FS

// man is `followup man [COMMAND [SUBCOMMAND]]`: the manual page of followup
// or of one command, in roff.
func man(ctx context.Context, c *Call) error {
	cmd, err := findCommand(c)
	if err != nil {
		return err
	}
	page, err := manPages.ReadFile("man/" + strings.ReplaceAll(cmd.CommandPath(), " ", "-") + ".1")
	if err != nil {
		return usagef("%q has no manual page", cmd.CommandPath())
	}
	c.OK(map[string]any{"command": strings.Join(c.Args.Positional, " "), "man": string(page)}, func(w io.Writer) { w.Write(page) })
	return nil
}

// Options turns flags and environment into the host's options. A
// headless command that exits after its one read or change is
// ShortLived; the chat screen (no command) and a LongLived command are not.
func Options(a Args) (chat.Options, error) {
	path, err := DBPath(a.Flag("db"))
	if err != nil {
		return chat.Options{}, err
	}
	o := chat.Options{DBPath: path, Policy: chat.DefaultPolicy()}
	if c := lookup(a.Command); c != nil && !c.LongLived {
		o.ShortLived = true
	}
	cfg := agent.ConfigFromEnv(a.Flag("provider"), a.Flag("model"))
	if cfg.Provider != "" && cfg.Provider != "offline" { // else the host's default, the offline agent
		if o.Provider, err = agent.NewRemoteProvider(cfg); err != nil {
			return o, err
		}
	}
	o.Model = cfg.Model
	if o.MCP, err = mcpOptions(a); err != nil {
		return o, err
	}
	if a.Command == "" || drives[a.Command] || a.Command == "mcp serve" {
		o.Skills = skills.Discover(skills.UserDirs()...)
	}
	if v := a.Flag("questions"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 32 {
			return o, fmt.Errorf("--questions must be a number from 1 to 32")
		}
		o.Policy.QuestionsPerRun = n
	}
	if v := a.Flag("reply-size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<20 {
			return o, fmt.Errorf("--reply-size must be a number of bytes from 1 to 1048576")
		}
		o.Policy.ReplySize = n
	}
	return o, nil
}

// DBPath is --db, else FOLLOWUP_DB, else the XDG data directory. An empty
// FOLLOWUP_DB counts as unset (an empty --db never gets here: it is a
// usage error). The default is never relative to the working directory: a
// job without a usable home (no HOME, an empty or a relative one, and none
// in the password file) is told to name the database.
func DBPath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if env := os.Getenv("FOLLOWUP_DB"); env != "" {
		return env, nil
	}
	// The XDG rule: a relative XDG_DATA_HOME is ignored.
	dir := os.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(dir) {
		home := mcp.UserHome(os.Getenv)
		if home == "" {
			return "", usagef("no home directory to keep the database in (HOME is unset, empty or relative, and this user has none in the password file): set --db or FOLLOWUP_DB")
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "followup", "followup.db"), nil
}

// hasTerminal reports whether the chat screen has a terminal to draw on and
// read keys from: standard input is one, or the process has a controlling
// terminal (/dev/tty) the screen can open, as when input is piped in. A
// cron job, a CI step or ssh without a tty has neither.
func hasTerminal(stdin io.Reader) bool {
	if isTerminal(stdin) {
		return true
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	tty.Close()
	return true
}

// isTerminal reports whether v is a file that is a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
