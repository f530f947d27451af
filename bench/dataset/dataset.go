// Package dataset builds a large, realistic followup database for benchmarks
// (DESIGN §13): chats with long markdown transcripts, runs in every state and
// input requests in every state with revisions, drafts, answers, proposals,
// deliveries and receipts. Rows are written as they stand (the store's
// typed writes, and bulk writers of its own for messages and requests;
// chat.Open then rebuilds the pending list), and the same seed always gives
// the same database.
package dataset

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"followup/forms"
	"followup/store"
)

// Sizes say how much to build.
type Sizes struct {
	Chats    int
	Messages int // in all chats together
	Requests int // in all chats together
	// BigChat is the message count of the newest chat, the one the chat
	// screen opens. It has two pending requests: the 32-field form and,
	// newest, the travel form the screen shows first.
	BigChat int
	// Pending is the percentage of requests still open; the rest are
	// closed in the proportions of stateCycle.
	Pending int
	Seed    uint64
}

// Default is the size DESIGN §13 budgets name.
func Default() Sizes {
	return Sizes{Chats: 1000, Messages: 100_000, Requests: 10_000, BigChat: 2000, Pending: 10, Seed: 1}
}

// Summary says what was built.
type Summary struct {
	Chats, Runs, Messages, Requests int
	States                          map[string]int // request state (expired:reason) → count
	BigChatID                       string         // the newest chat
	BigRequestID                    string         // its pending 32-field request
}

// t0 is the generated history's first instant (2025-06-01T00:00:00Z).
const t0 = int64(1748736000000)

// farFuture is a deadline no benchmark reaches (2100-01-01).
const farFuture = int64(4102444800000)

// closedCycle spreads closed requests: two thirds answered, one ninth
// cancelled, two ninths expired (deadline, template withdrawn, task
// stopped). The first entries make every state appear even in a tiny
// database.
var closedCycle = []string{
	"answered", "cancelled", "expired:deadline", "expired:template_invalidated", "expired:task_stopped",
	"answered", "answered", "answered", "answered", "answered", "answered",
	"answered", "answered", "answered", "answered", "answered",
	"cancelled", "expired:task_stopped",
}

// chatsPerTx is how many chats one write transaction carries.
const chatsPerTx = 25

// Build fills st, which should be empty.
func Build(ctx context.Context, st *store.Store, sz Sizes) (Summary, error) {
	if sz.Chats < 1 {
		return Summary{}, fmt.Errorf("at least one chat is needed")
	}
	sz.BigChat = min(sz.BigChat, sz.Messages)
	g := &gen{r: rand.New(rand.NewPCG(sz.Seed, 0x5eed)), sum: Summary{States: map[string]int{}}}
	g.txt = text{g.r}
	err := st.Write(ctx, func(tx store.Handle) error {
		// A big page cache keeps each bulk transaction off the disk until
		// it commits.
		if err := setCacheSize(ctx, tx, 256<<10); err != nil {
			return err
		}
		for _, t := range []store.Template{
			{Name: "bug-report", Definition: mustJSON(kinds[3].def), State: "active", UpdatedAt: t0},
			{Name: "onboarding-2025", Definition: mustJSON(kinds[4].def), State: "invalidated", UpdatedAt: t0},
		} {
			if err := qs.UpsertTemplate(ctx, tx, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	reqIndex := 0
	for first := 0; first < sz.Chats; first += chatsPerTx {
		err := st.Write(ctx, func(tx store.Handle) error {
			for c := first; c < min(first+chatsPerTx, sz.Chats); c++ {
				nReq := share(sz.Requests, sz.Chats, c)
				nMsg := share(sz.Messages-sz.BigChat, sz.Chats-1, c-1)
				if c == 0 {
					nMsg = sz.BigChat
				}
				if err := g.chat(ctx, tx, sz, c, nReq, nMsg, reqIndex); err != nil {
					return fmt.Errorf("chat %d: %w", c, err)
				}
				reqIndex += nReq
			}
			return nil
		})
		if err != nil {
			return g.sum, err
		}
	}
	// The requests were written without chat/, which keeps each pending
	// request's item: the next chat.Open builds them all.
	return g.sum, st.Write(ctx, func(tx store.Handle) error { return qs.MarkPendingItemsStale(ctx, tx) })
}

// share is part i of total split into n nearly equal parts.
func share(total, n, i int) int {
	if n <= 0 || i < 0 {
		return 0
	}
	s := total / n
	if i < total%n {
		s++
	}
	return s
}

type gen struct {
	r   *rand.Rand
	txt text
	sum Summary
	now int64 // the clock of the chat being written
}

func (g *gen) id(prefix string) string { return fmt.Sprintf("%s_%016x", prefix, g.r.Uint64()) }

// tick advances the chat's clock by a few seconds to a few minutes.
func (g *gen) tick() int64 {
	g.now += int64(5_000 + g.r.IntN(180_000))
	return g.now
}

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

// request writes one request with everything that belongs to it and returns
// its messages: the model's tool call, the card in the transcript and, once
// delivered, the tool result the model read.
func (g *gen) request(ctx context.Context, tx store.Handle, chatID string, run store.Run, p plannedRequest) ([]store.Message, error) {
	k := kinds[p.kind]
	now := g.tick()
	callID := g.id("call")
	def := k.def
	if k.template == "" {
		// Forms the agent writes differ in their wording; template forms
		// are the same every time.
		def.Title = fmt.Sprintf("%s: %s %s", def.Title, g.txt.word(), g.txt.word())
	}
	prefill := k.prefill
	r := store.Request{
		ID: g.id("rq"), ChatID: chatID, RunID: sql.NullString{String: run.ID, Valid: true},
		RequestKey: fmt.Sprintf("%s-%d", k.key, g.sum.Requests), ToolCallID: callID, State: store.ReqPending,
		Revision: 1, Reason: "A detail is missing: " + g.txt.sentence(), Title: def.Title, Template: k.template,
		CreatedAt: now, UpdatedAt: now,
	}
	if p.reason == store.ReasonTemplateInvalidated {
		r.Template = "onboarding-2025"
	}
	r.ArgsHash = fmt.Sprintf("%064x", g.r.Uint64())
	if g.r.IntN(3) == 0 {
		r.Context = sql.NullString{String: `{"operation":"` + k.key + `","attempt":1}`, Valid: true}
	}
	switch {
	case p.reason == store.ReasonDeadline:
		r.ExpiresAt = sql.NullInt64{Int64: now + 3600_000, Valid: true}
	case p.state == store.ReqPending && g.r.IntN(10) == 0:
		r.ExpiresAt = sql.NullInt64{Int64: farFuture, Valid: true}
	}
	// Some requests were replaced once: revision 1 is an older definition.
	revs := 1
	if g.r.IntN(7) == 0 {
		revs = 2
	}
	first := def
	first.Title = def.Title + " (draft)"
	r.Digest = forms.Digest(first, prefill, nil)
	if revs == 1 {
		r.Digest = forms.Digest(def, prefill, nil)
	}
	r, err := insertRequest(ctx, tx, r)
	if err != nil {
		return nil, err
	}
	g.sum.Requests++
	if revs == 2 {
		if err := g.revision(ctx, tx, r.ID, 1, first, prefill, now); err != nil {
			return nil, err
		}
		replace := map[string]any{"definition": def, "prefill": prefill}
		if err := qs.InsertProposal(ctx, tx, store.Proposal{ID: g.id("pr"), RequestID: r.ID, Kind: "replace",
			State: store.ProposalPending, BaseDigest: r.Digest, Payload: mustJSON(replace), CreatedAt: g.tick()}); err != nil {
			return nil, err
		}
		r.Revision, r.Digest = 2, forms.Digest(def, prefill, nil)
	}
	if err := g.revision(ctx, tx, r.ID, r.Revision, def, prefill, now); err != nil {
		return nil, err
	}
	if revs == 2 {
		// The replacement was accepted: mark the proposal so.
		ps, err := qs.PendingProposalsOf(ctx, tx, []string{r.ID})
		if err != nil {
			return nil, err
		}
		for _, pr := range ps[r.ID] {
			if err := qs.DecideProposal(ctx, tx, pr.ID, store.ProposalAccepted, g.tick()); err != nil {
				return nil, err
			}
		}
	}
	msgs := []store.Message{
		{Role: store.RoleAssistant, ToolCalls: sql.NullString{String: `[{"id":"` + callID +
			`","name":"input_request","arguments":"{}"}]`, Valid: true}, ForModel: true},
		{Role: store.RoleRequest, RequestID: sql.NullString{String: r.ID, Valid: true}, Visible: true},
	}
	// Drafts: many open and some answered requests have one.
	if (p.state == store.ReqPending && g.r.IntN(5) < 2) || (p.state == store.ReqAnswered && g.r.IntN(2) == 0) {
		if err := qs.UpsertDraft(ctx, tx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: mustJSON(k.answer),
			Edited: true, UpdatedAt: g.tick()}); err != nil {
			return nil, err
		}
	}
	// Resolve proposals: the agent read values from a chat message.
	if g.r.IntN(10) == 0 {
		state := store.ProposalPending
		if p.state != store.ReqPending {
			state = []string{store.ProposalAccepted, store.ProposalRejected, store.ProposalSuperseded}[g.r.IntN(3)]
		}
		pr := store.Proposal{ID: g.id("pr"), RequestID: r.ID, Kind: "resolve", State: store.ProposalPending,
			BaseDigest: r.Digest, Payload: mustJSON(map[string]any{"values": k.answer}), CreatedAt: g.tick()}
		if err := qs.InsertProposal(ctx, tx, pr); err != nil {
			return nil, err
		}
		if state != store.ProposalPending {
			if err := qs.DecideProposal(ctx, tx, pr.ID, state, g.tick()); err != nil {
				return nil, err
			}
		}
	}
	if p.state == store.ReqPending {
		if g.r.IntN(10) == 0 && len(forms.Missing(def, nil, nil)) > 1 {
			name := forms.Missing(def, nil, nil)[0]
			r.Partial = sql.NullString{String: mustJSON(map[string]any{"values": map[string]any{name: k.answer[name]},
				"origins": map[string]string{name: "response"}}), Valid: true}
		}
		g.sum.States[store.ReqPending]++
		if run.ChatID == g.sum.BigChatID && p.kind == bigKind {
			g.sum.BigRequestID = r.ID
		}
		return msgs, updateRequest(ctx, tx, r)
	}
	return g.close(ctx, tx, r, p, k, msgs)
}

// close records how a request ended and its delivery to the agent.
func (g *gen) close(ctx context.Context, tx store.Handle, r store.Request, p plannedRequest, k kind, msgs []store.Message) ([]store.Message, error) {
	now := g.tick()
	r.State, r.ClosedReason, r.UpdatedAt = p.state, p.reason, now
	r.ClosedAt = sql.NullInt64{Int64: now, Valid: true}
	if p.reason == store.ReasonDeadline {
		r.ClosedAt.Int64 = r.ExpiresAt.Int64
	}
	g.sum.States[p.state+suffix(p.reason)]++
	if err := updateRequest(ctx, tx, r); err != nil {
		return nil, err
	}
	var kindOf, payload string
	switch p.state {
	case store.ReqAnswered:
		cmd := g.id("cmd")
		origins := map[string]string{}
		for name := range k.answer {
			origins[name] = "response"
		}
		if err := qs.InsertAnswer(ctx, tx, store.Answer{RequestID: r.ID, Revision: r.Revision, Digest: r.Digest,
			Values: mustJSON(k.answer), Origins: mustJSON(origins), CommandID: cmd, CreatedAt: now}); err != nil {
			return nil, err
		}
		if err := qs.InsertReceipt(ctx, tx, store.Receipt{CommandID: cmd, ChatID: sql.NullString{String: r.ChatID, Valid: true},
			Kind: "answer", ArgsHash: fmt.Sprintf("%064x", g.r.Uint64()),
			Result:    mustJSON(map[string]any{"requestId": r.ID, "commandId": cmd, "kind": "answer", "applyState": "applied"}),
			CreatedAt: now}); err != nil {
			return nil, err
		}
		kindOf = store.DeliveryAnswer
		payload = mustJSON(map[string]any{"status": "input_received", "requestId": r.ID, "values": k.answer,
			"origins": origins, "origin": map[string]any{"originalRequest": r.RequestKey, "toolCallId": r.ToolCallID, "runId": r.RunID.String}})
	case store.ReqCancelled:
		if err := g.receipt(ctx, tx, r.ChatID, "cancel"); err != nil {
			return nil, err
		}
		kindOf = store.DeliveryCancel
		payload = mustJSON(map[string]any{"status": "input_cancelled", "requestId": r.ID})
	case store.ReqExpired:
		if p.reason == store.ReasonTaskStopped {
			return msgs, nil // stopping a task delivers nothing
		}
		kindOf = store.DeliveryExpire
		payload = mustJSON(map[string]any{"status": "input_expired", "requestId": r.ID, "reason": p.reason})
	}
	d := store.Delivery{RequestID: r.ID, RunID: r.RunID, Kind: kindOf, State: store.DeliveryPending, Payload: payload,
		CreatedAt: now, UpdatedAt: now}
	id, err := qs.InsertDelivery(ctx, tx, d)
	if err != nil {
		return nil, err
	}
	d.ID, d.UpdatedAt, d.Attempts, d.State = id, g.tick(), 1, store.DeliveryDelivered
	if g.r.IntN(25) == 0 {
		d.State, d.Attempts, d.LastError = store.DeliveryFailed, 3, "the run had already ended"
	}
	if err := qs.UpdateDelivery(ctx, tx, d); err != nil {
		return nil, err
	}
	if d.State == store.DeliveryDelivered {
		msgs = append(msgs, store.Message{Role: store.RoleTool, Content: payload, ToolCallID: r.ToolCallID,
			ToolName: "input_request", DeliveryID: sql.NullInt64{Int64: id, Valid: true}, ForModel: true})
	}
	return msgs, nil
}

func suffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ":" + reason
}

func (g *gen) revision(ctx context.Context, tx store.Handle, id string, rev int, def forms.Definition, prefill forms.Values, now int64) error {
	v := store.Revision{RequestID: id, Revision: rev, Digest: forms.Digest(def, prefill, nil), Definition: mustJSON(def), CreatedAt: now}
	if len(prefill) > 0 {
		v.Prefill = sql.NullString{String: mustJSON(prefill), Valid: true}
	}
	return insertRevision(ctx, tx, v)
}

// receipt stores the receipt of a command that returns only its id.
func (g *gen) receipt(ctx context.Context, tx store.Handle, chatID, kind string) error {
	cmd := g.id("cmd")
	return qs.InsertReceipt(ctx, tx, store.Receipt{CommandID: cmd, ChatID: sql.NullString{String: chatID, Valid: true},
		Kind: kind, ArgsHash: fmt.Sprintf("%064x", g.r.Uint64()),
		Result: mustJSON(map[string]any{"commandId": cmd}), CreatedAt: g.now})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
