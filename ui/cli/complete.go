package cli

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"followup/chat"
	"followup/forms"
)

// completeArg offers what c's argument can be when the shell asks
// (`followup completion`): the waiting questions for a request id and the
// chats for a chat id, each with its title, read from the database the
// command line names; file names only where the argument is a file, and
// nothing else for an id or a message.
func completeArg(c *Command) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(c.Args) == 0 || len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		switch c.Args[0] {
		case "FILE|-":
			return nil, cobra.ShellCompDirectiveDefault
		case "REQUEST_ID", "CHAT_ID", "CHAT_OR_RUN_ID":
			return idsFor(cmd, c.Args[0], c.Name), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// idsFor lists the ids an argument named arg of command can take, with
// their titles (`archive` the active chats, `unarchive` the archived ones);
// none when the database is not there yet (completing never makes one) or
// cannot be read.
func idsFor(cmd *cobra.Command, arg, command string) []cobra.Completion {
	path, err := DBPath(cmd.Flag("db").Value.String())
	if err != nil {
		return nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: path, ShortLived: true})
	if err != nil {
		return nil
	}
	defer svc.Close()
	var out []cobra.Completion
	if arg == "REQUEST_ID" {
		pending, _ := svc.Pending(ctx, "")
		for _, r := range pending {
			out = append(out, cobra.CompletionWithDesc(r.ID, forms.PlainLine(r.Title)))
		}
		return out
	}
	page, _ := svc.ChatList(ctx, "", 0)
	for _, c := range page.Chats {
		if (command == "archive" && c.State.Archived()) || (command == "unarchive" && !c.State.Archived()) {
			continue
		}
		out = append(out, cobra.CompletionWithDesc(c.ID, forms.PlainLine(c.Title)))
	}
	return out
}
