package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"followup/chat"
	"followup/forms"
)

func inspect(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	v, err := s.Inspect(ctx, c.Arg(0))
	if err != nil {
		return err
	}
	out.ok(v, func(w io.Writer) {
		if v.Chat != nil {
			fmt.Fprintf(w, "chat %s  %q  %s\n", v.Chat.ID, forms.SanitizeLine(v.Chat.Title), v.Chat.State)
		}
		if v.Run != nil {
			fmt.Fprintf(w, "run %s  %s", v.Run.ID, v.Run.State)
			if v.Run.Result != nil {
				fmt.Fprintf(w, "  result %s", forms.SanitizeLine(compact(v.Run.Result)))
			}
			fmt.Fprintln(w)
			childLines(w, v.Children, "  ")
		}
		for _, m := range v.Messages {
			text := m.Content
			switch m.Role {
			case "request":
				text = "(input request " + m.RequestID + ")"
			case "assistant":
				text = forms.PlainText(text)
			}
			// A message of several lines keeps them, under its first.
			lines := strings.Split(strings.TrimRight(forms.SanitizeBlock(text), "\n"), "\n")
			fmt.Fprintf(w, "  %-9s %s\n", m.Role, lines[0])
			for _, l := range lines[1:] {
				fmt.Fprintf(w, "  %-9s %s\n", "", l)
			}
		}
		for _, r := range v.Requests {
			state := string(r.State)
			if r.ClosedReason != "" {
				state += " (" + r.ClosedReason + ")"
			}
			fmt.Fprintf(w, "request %s  %q  %s, %s\n", r.ID, forms.PlainLine(r.Title), state, forms.SanitizeLine(ownerText(r.Owner)+r.Origin.While()))
			for _, d := range r.Deliveries {
				fmt.Fprintf(w, "  delivery %d: %s %s\n", d.ID, d.Kind, d.State)
			}
		}
	})
	return nil
}

// childLines lists sub-agents, one line each (name, run, state, the first
// line of its reply or error), each over its own.
func childLines(w io.Writer, kids []chat.ChildView, indent string) {
	for _, k := range kids {
		last := k.Reply
		if k.Error != "" {
			last = k.Error
		}
		last, _, _ = strings.Cut(forms.PlainText(last), "\n")
		fmt.Fprintf(w, "%ssub-agent %s  %s  %s  %s\n", indent, forms.SanitizeLine(k.Name), k.ID, k.State, forms.SanitizeLine(last))
		childLines(w, k.Children, indent+"  ")
	}
}

// chatsCheck refuses a --limit or --cursor that cannot read a page.
func chatsCheck(a Args) error {
	if a.Has("limit") {
		if n, err := strconv.Atoi(a.Flag("limit")); err != nil || n < 1 || n > chat.MaxChatPage {
			return usagef("--limit must be a number from 1 to %d", chat.MaxChatPage)
		}
	}
	if err := chat.CheckChatCursor(a.Flag("cursor")); err != nil {
		return usagef("--cursor: %s", chat.AsError(err).Message)
	}
	return nil
}

// chats is `followup chats`: one page of the chat list. A page that has
// more after it says how to read them (next in JSON); nothing is left out
// silently.
func chats(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	limit, _ := strconv.Atoi(c.Flag("limit")) // checked: 0 when absent, the default page
	page, err := s.ChatList(ctx, c.Flag("cursor"), limit)
	if err != nil {
		return err
	}
	doc := map[string]any{"chats": page.Chats, "more": page.More}
	if page.More {
		doc["next"] = page.Next
	}
	out.ok(doc, func(w io.Writer) {
		if len(page.Chats) == 0 {
			fmt.Fprintln(w, "no chats")
		}
		for _, c := range page.Chats {
			waiting := fmt.Sprintf("%d %s", c.Pending, forms.Plural(c.Pending, "question", "questions"))
			fmt.Fprintf(w, "%s  %-8s  %s  %-11s  %s\n", c.ID, c.State, c.UpdatedAt.Local().Format("2006-01-02 15:04"), waiting, forms.SanitizeLine(c.Title))
		}
		if page.More {
			next := "followup chats --cursor " + page.Next
			if c.Args.Has("limit") {
				next += " --limit " + c.Flag("limit")
			}
			fmt.Fprintf(w, "more chats follow: %s\n", next)
		}
	})
	return nil
}

// lifecycle is `followup archive`, `unarchive` and `delete`.
func lifecycle(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	id, cmd := c.Arg(0), c.Args.Command
	view := map[string]any{"id": id, "state": "deleted"}
	var v chat.ChatView
	var err error
	switch cmd {
	case "archive":
		v, err = s.Archive(ctx, id, c.Flag("command-id"))
	case "unarchive":
		v, err = s.Unarchive(ctx, id, c.Flag("command-id"))
	default:
		if err = confirmDelete(ctx, c, id); err == nil {
			err = s.Delete(ctx, id, c.Flag("command-id"))
		}
	}
	if err != nil {
		return err
	}
	if cmd != "delete" {
		view = map[string]any{"id": v.ID, "title": v.Title, "state": v.State, "updatedAt": v.UpdatedAt}
	}
	done := map[string]string{"archive": "archived", "unarchive": "unarchived", "delete": "deleted"}[cmd]
	out.ok(map[string]any{"chat": view}, func(w io.Writer) {
		fmt.Fprintf(w, "chat %s %s\n", id, done)
	})
	return nil
}

// CodeDeclined is the error of a delete the user answered no to.
const CodeDeclined = "DECLINED"

// confirmDelete asks on the terminal before a chat is deleted, unless
// --yes says so already; without a terminal to ask on, --yes is needed.
// A confirmed answer its agent has not read yet is named first, and with
// --yes still said on standard error.
func confirmDelete(ctx context.Context, c *Call, id string) error {
	_, unread, err := c.Service.UnreadWarning(ctx, id)
	if err != nil {
		return err
	}
	if unread != "" {
		unread = "Note: " + unread + ", and goes with the chat.\n"
	}
	tty := isTerminal(c.Stdin)
	if c.Args.Has("yes") || !tty {
		fmt.Fprint(c.Stderr, unread)
	}
	if c.Args.Has("yes") {
		return nil
	} else if !tty {
		return usagef("delete asks before it deletes, and there is no terminal to ask on: add --yes to delete %s without asking", id)
	}
	v, err := c.Service.Inspect(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Stderr, "%sDelete chat %s %q and everything in it? [y/N] ", unread, id, forms.SanitizeLine(v.Chat.Title))
	answer, _ := bufio.NewReader(c.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return &chat.Error{Code: CodeDeclined, Message: fmt.Sprintf("chat %s was not deleted", id)}
	}
	return nil
}
