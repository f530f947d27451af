package dataset

import (
	"context"
	"database/sql"

	"followup/store"
)

// One generated chat: its runs, requests and transcript.

// plannedRequest is a request before it is written.
type plannedRequest struct {
	state, reason string
	kind          int
}

// chat writes chat number c (0 is the newest) with nReq requests and about
// nMsg messages.
func (g *gen) chat(ctx context.Context, tx store.Handle, sz Sizes, c, nReq, nMsg, reqIndex int) error {
	chats := sz.Chats
	g.now = t0 + int64(chats-c)*6*3600_000
	chatID := g.id("ch")
	if c == 0 {
		g.sum.BigChatID = chatID
	}
	created := g.now
	if err := qs.InsertChat(ctx, tx, store.Chat{ID: chatID, Title: g.txt.user(), State: store.ChatActive,
		CreatedAt: created, UpdatedAt: created}); err != nil {
		return err
	}
	g.sum.Chats++

	// Plan the requests: closed ones in earlier runs of up to three, the
	// pending ones (at most a run's eight questions) in the last run.
	var closed, open []plannedRequest
	for i := range nReq {
		st := closedCycle[(reqIndex+i)%len(closedCycle)]
		if (reqIndex+i)*37%100 < sz.Pending {
			st = store.ReqPending // 37 is prime to 100: open requests spread over the chats
		}
		p := plannedRequest{kind: g.r.IntN(bigKind)}
		p.state, p.reason, _ = cut(st)
		if c == 0 && p.state == store.ReqPending {
			p.state = store.ReqAnswered // the newest chat has exactly one, added below
		}
		if p.state == store.ReqPending && len(open) < 8 {
			open = append(open, p)
		} else {
			if p.state == store.ReqPending {
				p.state = store.ReqAnswered
			}
			closed = append(closed, p)
		}
	}
	if c == 0 && nReq > 0 {
		if len(closed) > 0 {
			closed = closed[:len(closed)-1]
		}
		// Two open questions: the 32-field form, and the travel form the
		// screen shows first (the newest pending request is the active one).
		if len(closed) > 0 {
			closed = closed[:len(closed)-1]
		}
		open = append(open, plannedRequest{state: store.ReqPending, kind: bigKind},
			plannedRequest{state: store.ReqPending, kind: 1})
		if sz.BigFirst {
			open[0], open[1] = open[1], open[0]
		}
	}
	var runs [][]plannedRequest
	for len(closed) > 0 {
		n := min(len(closed), 1+g.r.IntN(3))
		runs = append(runs, closed[:n])
		closed = closed[n:]
	}
	if len(open) > 0 || len(runs) == 0 {
		runs = append(runs, open)
	}

	// Spread the messages left after the structural ones over the runs as
	// conversation turns.
	structural := 0
	for i, rs := range runs {
		structural += 2
		if i == len(runs)-1 && len(open) > 0 {
			structural-- // a waiting run has no reply yet
		}
		for _, p := range rs {
			structural += 3 // tool call, card, delivered result
			if p.state == store.ReqPending || p.reason == store.ReasonTaskStopped {
				structural--
			}
		}
	}
	filler := max(0, nMsg-structural)
	var msgs []store.Message
	for i, rs := range runs {
		last := i == len(runs)-1
		turns := share(filler, len(runs), i)
		ms, err := g.run(ctx, tx, chatID, rs, last && len(open) > 0, turns)
		if err != nil {
			return err
		}
		msgs = append(msgs, ms...)
	}
	// A failed delivery leaves no tool result: make up the difference with
	// turns at the start, so the chat has exactly its share.
	if len(msgs) > 0 && len(msgs) < nMsg {
		extra := make([]store.Message, 0, nMsg)
		for i := range nMsg - len(msgs) {
			m := store.Message{ChatID: chatID, RunID: msgs[0].RunID, Role: store.RoleUser, Content: g.txt.user(),
				Visible: true, ForModel: true, CreatedAt: msgs[0].CreatedAt}
			if i%2 == 1 {
				m.Role, m.Content = store.RoleAssistant, g.txt.reply()
			}
			extra = append(extra, m)
		}
		msgs = append(extra, msgs...)
	}
	if err := insertMessages(ctx, tx, msgs); err != nil {
		return err
	}
	g.sum.Messages += len(msgs)
	return qs.TouchChat(ctx, tx, chatID, g.now)
}

func cut(s string) (state, reason string, ok bool) {
	for i := range s {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// run writes one run with its requests and returns its messages, turns of
// conversation first.
func (g *gen) run(ctx context.Context, tx store.Handle, chatID string, reqs []plannedRequest, waiting bool, turns int) ([]store.Message, error) {
	start := g.tick()
	run, err := qs.InsertRun(ctx, tx, store.Run{ID: g.id("run"), ChatID: chatID, State: store.RunRunning,
		Provider: "offline", CreatedAt: start, UpdatedAt: start})
	if err != nil {
		return nil, err
	}
	g.sum.Runs++
	runID := sql.NullString{String: run.ID, Valid: true}
	var msgs []store.Message
	add := func(m store.Message) {
		m.ChatID, m.RunID, m.CreatedAt = chatID, runID, g.tick()
		msgs = append(msgs, m)
	}
	for i := range turns {
		if i%2 == 0 {
			add(store.Message{Role: store.RoleUser, Content: g.txt.user(), Visible: true, ForModel: true})
		} else {
			add(store.Message{Role: store.RoleAssistant, Content: g.txt.reply(), Visible: true, ForModel: true})
		}
	}
	add(store.Message{Role: store.RoleUser, Content: g.txt.user(), Visible: true, ForModel: true})
	if err := g.receipt(ctx, tx, chatID, "send"); err != nil {
		return nil, err
	}
	stopped := false
	for _, p := range reqs {
		ms, err := g.request(ctx, tx, chatID, run, p)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			add(m)
		}
		stopped = stopped || p.reason == store.ReasonTaskStopped
	}
	run.Step, run.Questions, run.ModelCalls = len(reqs)+1, len(reqs), len(reqs)+1
	switch {
	case waiting:
		run.State = store.RunWaitingInput
	case stopped:
		run.State = store.RunStopped
		add(store.Message{Role: store.RoleNotice, Content: "Task stopped. Its open questions expired; the conversation stays.", Visible: true})
		if err := g.receipt(ctx, tx, chatID, "stop"); err != nil {
			return nil, err
		}
	case g.r.IntN(20) == 0:
		run.State, run.Error = store.RunFailed, "provider refused the request (401): invalid API key"
		add(store.Message{Role: store.RoleNotice, Content: "The run failed: " + run.Error, Visible: true})
	default:
		run.State = store.RunSucceeded
		run.Reply = g.txt.reply()
		run.Result = sql.NullString{String: `{"done":true}`, Valid: true}
		add(store.Message{Role: store.RoleAssistant, Content: run.Reply, Visible: true, ForModel: true})
	}
	run.UpdatedAt = g.now
	return msgs, qs.UpdateRun(ctx, tx, run)
}
