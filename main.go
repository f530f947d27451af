// Command followup is a terminal chat in which an AI agent asks the user
// follow-up questions as forms. With no subcommand it opens the chat UI;
// the subcommands drive the same database headlessly (docs/cli.md).
package main

import (
	"context"
	"os"

	"followup/chat"
	"followup/ui"
	"followup/ui/cli"
	"followup/ui/cli/quietterm"
)

func main() {
	openUI := func(ctx context.Context, o chat.Options) error {
		// Only the chat screen asks the terminal anything, and before it
		// owns it; a headless command never does (see quietterm).
		quietterm.AskBackground()
		return ui.Run(ctx, o)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, openUI))
}
