package dataset

import (
	"context"
	"database/sql"
	"fmt"

	"followup/forms"
	"followup/store"
)

// One generated request: its revisions, drafts, proposals, how it ended and
// its delivery to the agent.

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
