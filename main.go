// Command followup is a terminal chat in which an AI agent asks the user
// follow-up questions as forms. With no subcommand it opens the chat UI;
// the subcommands drive the same database headlessly (see README.md).
package main

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
	"followup/ui"
	"followup/ui/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a, err := cli.Parse(argv)
	if err == nil && a.Command != "" {
		err = a.Check()
	}
	if err != nil {
		fmt.Fprintf(stderr, "followup: %v\n\n%s", err, cli.Usage)
		return 2
	}
	if a.Help {
		fmt.Fprint(stdout, cli.Usage)
		return 0
	}
	if a.Command == "validate-input" {
		return cli.ValidateInput(a, cli.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr})
	}
	opts, err := options(a)
	if err != nil {
		fmt.Fprintf(stderr, "followup: %v\n", err)
		return 2
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
	if a.Command == "" {
		stop() // the UI handles ctrl+c itself
		if err := ui.Run(context.Background(), svc); err != nil {
			fmt.Fprintf(stderr, "followup: %v\n", err)
			return 1
		}
		return 0
	}
	return cli.Exec(ctx, a, cli.Env{Service: svc, Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// options wires flags and environment into the host's options.
func options(a cli.Args) (chat.Options, error) {
	o := chat.Options{DBPath: dbPath(a.Flags["db"]), Policy: chat.DefaultPolicy()}
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

// dbPath is --db, else FOLLOWUP_DB, else the XDG data directory.
func dbPath(flag string) string {
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
