package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"followup/chat"
	"followup/forms"
)

func runOut(v chat.RunView) map[string]any {
	return map[string]any{"id": v.ID, "state": v.State, "reply": v.Reply, "result": v.Result, "error": v.Error}
}

func failed(out *printer, v chat.RunView, extra map[string]any) error {
	code := chat.CodeProviderFailed
	if prefix, _, ok := strings.Cut(v.Error, ":"); ok && prefix == chat.CodeLimitExceeded {
		code = chat.CodeLimitExceeded
	}
	retry := "followup resume " + v.ID
	e := &chat.Error{Code: code, Message: v.Error, Details: map[string]any{"runId": v.ID, "chatId": v.ChatID, "state": v.State, "retry": retry}}
	for k, x := range extra {
		e.Details[k] = x
	}
	out.finish(e, io.Discard)
	if !out.json {
		fmt.Fprintf(out.w, "run %s failed: %s\n%s tries it again\n", v.ID, forms.SanitizeLine(v.Error), retry)
	}
	return errRunFailed
}

func ask(ctx context.Context, c *Call) error {
	attach, err := attachments(c.Flag("attach"))
	if err != nil {
		return err
	}
	sent, err := c.Service.Send(ctx, c.Flag("chat"), c.Arg(0), c.Flag("command-id"), attach...)
	if err != nil {
		return err
	}
	return driveSent(ctx, c, sent)
}

// driveSent drives the run a message went to until it waits or ends, and
// prints where it is and what it waits for.
func driveSent(ctx context.Context, c *Call, sent chat.Sent) error {
	run, err := c.Service.Drive(ctx, sent.RunID)
	if err != nil {
		// The message is recorded: say which run it went to.
		return withDetails(err, map[string]any{"chatId": sent.ChatID, "runId": sent.RunID})
	}
	doc := map[string]any{"chatId": sent.ChatID, "runId": sent.RunID, "state": run.State, "reply": run.Reply}
	return drove(ctx, c, run, map[string]any{"chatId": sent.ChatID}, doc, fmt.Sprintf("chat %s  run %s  %s\n", sent.ChatID, sent.RunID, run.State), false)
}

// drove prints a run a command drove: a failed one as the command's
// failure, with details; else doc and what the run waits for, or as text
// head, the run's reply and what it waits for (only head when another
// process drives the run on: its reply is not news).
func drove(ctx context.Context, c *Call, run chat.RunView, details, doc map[string]any, head string, elsewhere bool) error {
	if run.State == chat.RunFailed {
		return failed(c.out, run, details)
	}
	pend, aps, err := c.Service.WaitsFor(ctx, run.ID)
	if err != nil {
		return err
	}
	doc["pending"], doc["approvals"] = pend, aps
	c.OK(doc, func(w io.Writer) {
		b := &blocks{w: w}
		b.add(head)
		if !elsewhere {
			b.add(replyText(run.Reply))
			addWaiting(b, pend, aps)
		}
	})
	return nil
}

func pending(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	// The stored list: with --json its objects are copied out as they are.
	list, err := s.PendingItems(ctx, c.Flag("chat"))
	if err != nil {
		return err
	}
	if out.json {
		return out.okDoc(list)
	}
	// Text shows the proposals waiting on each request too, which only the
	// full views carry.
	rs, err := s.Pending(ctx, c.Flag("chat"))
	if err != nil {
		return err
	}
	quiet, err := s.QuietChats(ctx)
	if err != nil {
		return err
	}
	out.ok(nil, func(w io.Writer) {
		if len(rs) == 0 && len(list.Approvals) == 0 {
			fmt.Fprintln(w, "no pending requests")
		}
		addWaiting(&blocks{w: w}, rs, list.Approvals)
		for _, r := range rs {
			if quiet[r.ChatID] && r.Owner.Kind == chat.OwnerMCPClient {
				fmt.Fprintf(w, "\n%s: its client has made no call for minutes and may be gone (followup cancel %s withdraws it)\n", r.ID, r.ID)
			}
		}
	})
	return nil
}

func show(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	r, err := s.Request(ctx, c.Arg(0))
	if err != nil {
		return err
	}
	revs, err := s.Revisions(ctx, r.ID)
	if err != nil {
		return err
	}
	out.ok(map[string]any{"request": r, "revisions": revs}, func(w io.Writer) {
		state := string(r.State)
		if r.ClosedReason != "" {
			state += " (" + r.ClosedReason + ")"
		}
		heading := fmt.Sprintf("%s  %q  %s  revision %d  digest %s", r.ID, forms.PlainLine(r.Title), state, r.Revision, r.Digest)
		var answered forms.Values
		if r.Answer != nil {
			answered = r.Answer.Values
		}
		b := &blocks{w: w}
		b.add(requestText(heading, r.RequestItem, answered, r.Proposals))
		var more strings.Builder
		if r.Answer != nil {
			fmt.Fprintf(&more, "answer: %s\n", forms.SanitizeLine(compact(r.Answer.Values)))
		}
		for _, d := range r.Deliveries {
			fmt.Fprintln(&more, forms.SanitizeLine(deliveryLine(d, r.Owner)))
		}
		for _, v := range revs {
			fmt.Fprintf(&more, "revision %v: digest %v\n", v["revision"], v["digest"])
		}
		b.add(more.String())
	})
	return nil
}

func answer(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	vals, err := parseValues(c.Flag("values-json"))
	if err != nil {
		return err
	}
	rc, err := s.Answer(ctx, chat.AnswerInput{RequestID: c.Arg(0), Digest: c.Flag("digest"), Values: vals, CommandID: c.Flag("command-id")})
	if err != nil {
		return err
	}
	return driveAfter(ctx, s, rc, out)
}

func cancel(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	rc, err := s.Cancel(ctx, c.Arg(0), c.Flag("command-id"))
	if err != nil {
		return err
	}
	return driveAfter(ctx, s, rc, out)
}

// driveAfter drives the run on after an answer or cancel and prints both.
func driveAfter(ctx context.Context, s *chat.Service, rc chat.Receipt, out *printer) error {
	if rc.RunID == "" {
		return sessionReceipt(ctx, s, rc, out)
	}
	var run chat.RunView
	var err error
	elsewhere := false // another process drives the run on
	if rc.ApplyState == chat.Applied {
		run, elsewhere, err = s.DriveOn(ctx, rc.RunID)
	} else {
		run, err = s.GetRun(ctx, rc.RunID) // a partial answer moves nothing
	}
	if err != nil {
		// The answer is recorded even though driving on failed: say so, so a
		// script does not answer again.
		return withDetails(err, map[string]any{"receipt": rc, "runId": rc.RunID})
	}
	if run.State == chat.RunFailed {
		return failed(out, run, map[string]any{"receipt": rc})
	}
	doc := map[string]any{"receipt": rc, "run": runOut(run)}
	task := run // a sub-agent's answer moves its task: the root run, shown too
	for task.ParentRunID != "" && err == nil {
		task, err = s.GetRun(ctx, task.ParentRunID)
	}
	if task.ID != run.ID {
		doc["task"] = runOut(task)
	}
	out.ok(doc, func(w io.Writer) {
		if rc.ApplyState == chat.Partial {
			// The run did not move: its old reply would read as news.
			fmt.Fprintf(w, "%s kept as partial; still missing: %s\n", rc.RequestID, strings.Join(rc.Missing, ", "))
			fmt.Fprintf(w, "run %s  %s\n", run.ID, run.State)
			return
		}
		fmt.Fprintf(w, "%s %s\n", rc.RequestID, map[string]string{"answer": "answered", "cancel": "cancelled"}[rc.Kind])
		if elsewhere {
			// The run's reply is the one before this answer: not news.
			fmt.Fprintln(w, forms.SanitizeLine(drivenElsewhere(ctx, s, rc, run)))
			return
		}
		fmt.Fprintf(w, "run %s  %s\n", run.ID, run.State)
		(&blocks{w: w, used: true}).add(replyText(run.Reply))
		if task.ID != run.ID {
			fmt.Fprintf(w, "task %s  %s\n", task.ID, task.State)
			if task.State.Final() {
				(&blocks{w: w, used: true}).add(replyText(task.Reply))
			}
		}
	})
	return nil
}

// drivenElsewhere says who takes a run on after an answer or cancel made
// here while another process drives it: for an MCP server's question
// during a call, the process that asked the server, which keeps its
// connection and sends it the answer.
func drivenElsewhere(ctx context.Context, s *chat.Service, rc chat.Receipt, run chat.RunView) string {
	tail := fmt.Sprintf("; followup inspect %s shows what it comes to", run.ChatID)
	if r, err := s.Request(ctx, rc.RequestID); err == nil && r.Owner.Kind == chat.OwnerMCPServer && r.Live {
		during := ""
		if r.Tool != "" {
			during = " during " + r.Tool
		}
		return fmt.Sprintf("run %s goes on in the process that asked %s%s (the chat screen or the command that made the call): it keeps %s's connection, sends it the %s and drives the run on%s",
			run.ID, r.Owner.Name, during, r.Owner.Name, map[string]string{"answer": "answer", "cancel": "decline"}[rc.Kind], tail)
	}
	return fmt.Sprintf("run %s goes on in the process that drives it (the chat screen or another command)%s", run.ID, tail)
}

// sessionReceipt prints the receipt of an answer or cancel of a request
// with no run (an MCP client's, through mcp serve): there is no run to
// drive on; the client reads the outcome when it asks for it.
func sessionReceipt(ctx context.Context, s *chat.Service, rc chat.Receipt, out *printer) error {
	who := "the asking agent"
	if r, err := s.Request(ctx, rc.RequestID); err == nil && r.Owner.Kind == chat.OwnerMCPClient {
		who = "the MCP client that asked"
		if r.Owner.Name != "" {
			who = r.Owner.Name + ", " + who + ","
		}
	}
	out.ok(map[string]any{"receipt": rc, "run": nil}, func(w io.Writer) {
		if rc.ApplyState == chat.Partial {
			fmt.Fprintf(w, "%s kept as partial; still missing: %s\n", rc.RequestID, strings.Join(rc.Missing, ", "))
			return
		}
		done, what := "answered", "the answer"
		if rc.Kind == "cancel" {
			done, what = "cancelled", "that it was cancelled"
		}
		fmt.Fprintf(w, "%s %s\n", rc.RequestID, done)
		fmt.Fprintln(w, forms.SanitizeLine(who+" reads "+what+" through input_wait or input_read_answer"))
	})
	return nil
}

func stop(ctx context.Context, c *Call) error {
	s, out := c.Service, c.out
	res, err := s.Stop(ctx, c.Arg(0), c.Flag("command-id"))
	if err != nil {
		return err
	}
	out.ok(map[string]any{"run": map[string]any{"id": res.RunID, "state": res.State}}, func(w io.Writer) {
		fmt.Fprintf(w, "run %s stopped; its open questions expired\n", res.RunID)
	})
	return nil
}

func resume(ctx context.Context, c *Call) error {
	run, err := c.Service.Resume(ctx, c.Arg(0))
	if err != nil {
		return withDetails(err, map[string]any{"runId": c.Arg(0)})
	}
	return drove(ctx, c, run, nil, map[string]any{"run": runOut(run)}, fmt.Sprintf("run %s  %s\n", run.ID, run.State), false)
}

// withDetails adds details to err's (as a chat error), keeping any it has.
func withDetails(err error, details map[string]any) error {
	e := chat.AsError(err)
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	for k, v := range details {
		if _, ok := e.Details[k]; !ok {
			e.Details[k] = v
		}
	}
	return e
}
