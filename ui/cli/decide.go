package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"followup/chat"
	"followup/forms"
)

// decide is `followup decide PROPOSAL_ID --accept|--reject`: the user's
// decision on a change the agent proposed. Accepting a resolve fills the
// request's draft (the answer still has to be sent, as on screen);
// accepting a replace moves the request to the new revision.
func decide(ctx context.Context, c *Call) error {
	s := c.Service
	res, err := s.Decide(ctx, chat.Decision{ProposalID: c.Arg(0), Accept: c.Args.Has("accept")}, c.Flag("command-id"))
	if err != nil {
		return err
	}
	r, err := s.Request(ctx, res.RequestID)
	if err != nil {
		return err
	}
	// The draft is lenient (number text as typed, cleared fields as ""):
	// the command offered to send it holds only what answers the form.
	values, leftOut := forms.DraftAnswer(r.Definition, r.Supplied, res.Draft)
	req := map[string]any{"id": r.ID, "state": r.State, "digest": r.Digest, "revision": r.Revision, "missing": r.Missing,
		"values": values}
	c.OK(map[string]any{"receipt": res, "request": req}, func(w io.Writer) {
		switch {
		case res.State != "accepted":
			fmt.Fprintf(w, "proposal %s %s; %s keeps what it had\n", c.Arg(0), res.State, r.ID)
		case len(res.Draft) > 0 && res.Revision == r.Revision && r.State.Open():
			fmt.Fprintf(w, "proposal %s accepted; the draft of %s now holds %s\n", c.Arg(0), r.ID, forms.SanitizeLine(compact(res.Draft)))
			for _, p := range leftOut {
				fmt.Fprintf(w, "  not sent, not a valid answer yet: %s\n", forms.SanitizeLine(p.Message))
			}
			if len(values) == 0 {
				fmt.Fprintf(w, "nothing in it answers the form yet: followup pending --chat %s shows what is asked\n", r.ChatID)
				break
			}
			fmt.Fprintf(w, "send it with: %s\n", answerCommand(r.ID, values, r.Digest))
		default:
			fmt.Fprintf(w, "proposal %s accepted; %s is at revision %d, digest %s\n", c.Arg(0), r.ID, r.Revision, shortDigest(r.Digest))
		}
	})
	return nil
}

// answerCommand is the answer command a user can paste to send values to
// the revision with that digest.
func answerCommand(requestID string, values forms.Values, digest string) string {
	return fmt.Sprintf("followup answer %s --values-json %s --digest %s", requestID, shellQuote(compact(values)), shortDigest(digest))
}

// shellQuote quotes s for a POSIX shell, so a printed command can be
// pasted as it is.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shortDigest is the digest as text output shows it: a prefix --digest
// accepts.
func shortDigest(d string) string { return d[:min(len(d), chat.MinDigestPrefix)] }
