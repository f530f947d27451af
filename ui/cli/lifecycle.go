package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

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
			state := r.State
			if r.ClosedReason != "" {
				state += " (" + r.ClosedReason + ")"
			}
			fmt.Fprintf(w, "request %s  %q  %s, %s\n", r.ID, forms.SanitizeLine(r.Title), state, forms.SanitizeLine(ownerText(r.Owner)))
			for _, d := range r.Deliveries {
				fmt.Fprintf(w, "  delivery %d: %s %s\n", d.ID, d.Kind, d.State)
			}
		}
	})
	return nil
}

func chats(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	cs, err := s.Chats(ctx, 0)
	if err != nil {
		return err
	}
	out.ok(map[string]any{"chats": cs}, func(w io.Writer) {
		if len(cs) == 0 {
			fmt.Fprintln(w, "no chats")
		}
		for _, c := range cs {
			fmt.Fprintf(w, "%s  %-8s  %s\n", c.ID, c.State, forms.SanitizeLine(c.Title))
		}
	})
	return nil
}

func lifecycle(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	id := c.Arg(0)
	var err error
	if c.Args.Command == "archive" {
		_, err = s.Archive(ctx, id, c.Flag("command-id"))
	} else {
		err = s.Delete(ctx, id, c.Flag("command-id"))
	}
	if err != nil {
		return err
	}
	state := map[string]string{"archive": "archived", "delete": "deleted"}[c.Args.Command]
	out.ok(map[string]any{"chat": map[string]any{"id": id, "state": state}}, func(w io.Writer) {
		fmt.Fprintf(w, "chat %s %s\n", id, state)
	})
	return nil
}
