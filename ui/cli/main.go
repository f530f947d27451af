package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"followup/agent"
	"followup/chat"
)

// UI opens the chat screen on the database o names; Main calls it when no
// subcommand is given.
type UI func(ctx context.Context, o chat.Options) error

// Main is the whole command line: it parses argv, opens the database and
// runs a subcommand, or the UI when there is none, and returns the exit
// code (0 ok, 1 refused or failed, 2 usage).
func Main(argv []string, stdin io.Reader, stdout, stderr io.Writer, ui UI) int {
	a, err := Parse(argv)
	if err == nil && a.Help {
		if a.JSON {
			fmt.Fprintln(stdout, string(chat.OKJSON(map[string]any{"usage": Usage})))
		} else {
			fmt.Fprint(stdout, Usage)
		}
		return 0
	}
	if err == nil && a.Command != "" {
		err = a.Check()
	}
	if err == nil && a.Command == "" && a.JSON {
		err = &UsageError{"--json goes with a command, as in followup pending --json; without one followup opens the chat screen"}
	}
	if err != nil {
		if wantsJSON(argv) {
			fmt.Fprintln(stdout, string(chat.ErrorJSON(&chat.Error{Code: CodeUsage, Message: err.Error()})))
		}
		fmt.Fprintf(stderr, "followup: %v\n\n%s", err, Usage)
		return 2
	}
	if a.Command == "validate-input" {
		return ValidateInput(a, Env{Stdin: stdin, Stdout: stdout, Stderr: stderr})
	}
	opts, err := Options(a)
	if err != nil {
		if a.JSON {
			fmt.Fprintln(stdout, string(chat.ErrorJSON(&chat.Error{Code: CodeUsage, Message: err.Error()})))
		}
		fmt.Fprintf(stderr, "followup: %v\n", err)
		return 2
	}
	if a.Command == "" {
		if ui == nil {
			fmt.Fprintf(stderr, "followup: no command given\n\n%s", Usage)
			return 2
		}
		// The UI opens the database itself, while it takes over the
		// terminal, and handles ctrl+c itself.
		if err := ui(context.Background(), opts); err != nil {
			fmt.Fprintf(stderr, "followup: %v\n", err)
			return 1
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc, err := chat.Open(ctx, opts)
	if err != nil {
		if a.JSON {
			fmt.Fprintln(stdout, string(chat.ErrorJSON(&chat.Error{Code: "DATABASE_UNAVAILABLE", Message: err.Error()})))
		}
		fmt.Fprintf(stderr, "followup: %v\n", err)
		return 1
	}
	defer svc.Close()
	return Exec(ctx, a, Env{Service: svc, Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// CodeUsage is the error code of a malformed command line (exit 2).
const CodeUsage = "USAGE"

// wantsJSON reports whether --json is on a command line that did not parse.
func wantsJSON(argv []string) bool {
	for _, s := range argv {
		if s == "--json" || s == "-json" {
			return true
		}
	}
	return false
}

// Options turns flags and environment into the host's options.
func Options(a Args) (chat.Options, error) {
	o := chat.Options{DBPath: DBPath(a.Flags["db"]), Policy: chat.DefaultPolicy()}
	cfg := agent.ConfigFromEnv()
	if p := a.Flags["provider"]; p != "" {
		cfg.Provider = p
	}
	if m := a.Flags["model"]; m != "" {
		cfg.Model = m
	}
	switch cfg.Provider {
	case "", "offline":
		o.Provider = agent.Offline{}
	default:
		p, err := agent.NewRemoteProvider(cfg)
		if err != nil {
			return o, err
		}
		o.Provider = p
	}
	o.Model = cfg.Model
	if v := a.Flags["questions"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 32 {
			return o, fmt.Errorf("--questions must be a number from 1 to 32")
		}
		o.Policy.QuestionsPerRun = n
	}
	if v := a.Flags["reply-size"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<20 {
			return o, fmt.Errorf("--reply-size must be a number of bytes from 1 to 1048576")
		}
		o.Policy.ReplySize = n
	}
	return o, nil
}

// DBPath is --db, else FOLLOWUP_DB, else the XDG data directory.
func DBPath(flag string) string {
	if flag != "" {
		return flag
	}
	if env := os.Getenv("FOLLOWUP_DB"); env != "" {
		return env
	}
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "followup", "followup.db")
}
