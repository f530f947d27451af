package chat

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"followup/store"
)

// The serve tools of a session, besides input_request (sessions.go).

// Capabilities is input_capabilities.
func (ss *ServeSession) Capabilities(ctx context.Context, _ json.RawMessage) json.RawMessage {
	return result(ss.s.Capabilities(ctx))
}

// List is input_list: the session's requests in every state.
func (ss *ServeSession) List(ctx context.Context, _ json.RawMessage) json.RawMessage {
	ss.active(ctx)
	id := ss.rowID()
	if id == "" {
		return listResult(nil, nil)
	}
	return listResult(ss.s.listRequests(ctx, store.RequestFilter{SessionID: id}))
}

// ReadAnswer is input_read_answer. A closed request's result carries what
// the agent receives (docs/behaviour.md: input_received with the confirmed values,
// input_cancelled, input_expired), and returning it records the delivery.
func (ss *ServeSession) ReadAnswer(ctx context.Context, args json.RawMessage) json.RawMessage {
	ss.active(ctx)
	var a requestArg
	if err := DecodeArgs(args, &a); err != nil {
		return ErrorJSON(err)
	}
	v, err := ss.read(ctx, a.RequestID)
	if err != nil {
		return ErrorJSON(err)
	}
	return ss.answered(ctx, v)
}

// Cancel is input_cancel. Its command id is the session's and the
// request's, so cancelling twice returns the first receipt.
func (ss *ServeSession) Cancel(ctx context.Context, args json.RawMessage) json.RawMessage {
	var a requestArg
	if err := DecodeArgs(args, &a); err != nil {
		return ErrorJSON(err)
	}
	if v, err := ss.read(ctx, a.RequestID); err != nil {
		return ErrorJSON(err)
	} else if v.ClosedReason == ReasonChatDeleted {
		return ErrorJSON(&Error{Code: CodeTargetClosed, Message: "the user deleted the chat of this request",
			Details: map[string]any{"state": v.State, "closedReason": v.ClosedReason}})
	}
	return result(ss.s.cancel(ctx, a.RequestID, "serve:"+ss.rowID()+":cancel:"+a.RequestID, true))
}

// Wait is input_wait: ReadAnswer as soon as the request is no longer
// pending — changed by this process, or by another (the chat screen), which
// the host's watch announces for this request alone — or at timeout with state pending. When ctx
// ends first (its client cancelled the call, or its session ended and
// expired the request) it returns the request's state at that moment, as a
// result the agent can act on, never the cancellation; nothing is marked
// delivered then, since the call's answer may never be read.
func (ss *ServeSession) Wait(ctx context.Context, requestID string, timeout time.Duration) json.RawMessage {
	// ctx only ends the waiting: the reads after it must still succeed.
	rd := context.WithoutCancel(ctx)
	ss.active(rd)
	defer ss.active(rd) // a wait that returns is a call too
	defer ss.s.await(requestID)()
	var v RequestView
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := ss.s.waitFor(wctx, nil, nil, func(e Event) bool {
		// A chat deleted in this process announces only the chat; other
		// processes' changes come as EvRequest (awaited.go).
		return e.RequestID == requestID || e.Kind == EvChat && e.ChatID == v.ChatID
	}, func() (bool, error) {
		var err error
		v, err = ss.read(rd, requestID)
		return v.State != store.ReqPending, err
	})
	if err != nil && err == wctx.Err() {
		if v, err = ss.read(rd, requestID); err == nil && ctx.Err() != nil {
			return OKJSON(answerOf(v))
		}
	}
	if err != nil {
		return ErrorJSON(err)
	}
	return ss.answered(rd, v)
}

// Waiting reports whether one of the session's questions waits for the
// user (an error reads as one: the session is not ended on a guess).
func (ss *ServeSession) Waiting(ctx context.Context) bool {
	id := ss.rowID()
	if id == "" {
		return false
	}
	n, err := ss.s.store.CountSessionPending(ctx, ss.s.reader(), id)
	return err != nil || n > 0
}

// rowID is the session's id in the database, "" before its first request.
func (ss *ServeSession) rowID() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.row == nil {
		return ""
	}
	return ss.row.ID
}

// ReasonChatDeleted closes, for its agent, a serve request whose chat the
// user deleted (with the request).
const ReasonChatDeleted = "chat_deleted"

// read is one of the session's requests (asked by it, under any of its
// rows); any other id is NOT_FOUND, as a
// run's tools reach only their chat's requests. One the session asked
// whose chat the user has deleted reads as cancelled (chat_deleted): the
// agent learns the user withdrew it, not that it named a wrong id.
func (ss *ServeSession) read(ctx context.Context, requestID string) (RequestView, error) {
	ss.mu.Lock()
	id, asked := "", ss.asked[requestID]
	if ss.row != nil {
		id = ss.row.ID
	}
	ss.mu.Unlock()
	r, err := ss.s.store.GetRequest(ctx, ss.s.reader(), requestID)
	if errors.Is(err, store.ErrNotFound) && asked {
		return RequestView{RequestItem: RequestItem{ID: requestID, State: store.ReqCancelled, ClosedReason: ReasonChatDeleted}}, nil
	}
	// One its client asked in an ended session can be taken back.
	if err == nil && (id == "" || r.SessionID.String != id) && !asked {
		if ended := ss.endedElsewhere(ctx, r); ended != nil {
			return RequestView{}, ended
		}
	}
	// One it asked under an earlier row (its chat was archived since) is
	// still its own.
	if err != nil || id == "" || r.SessionID.String != id && !asked {
		return RequestView{}, errorf(CodeNotFound, "no request with id %q in this session", requestID)
	}
	return ss.s.Request(ctx, requestID)
}

// answered is the read-answer result of v; once v is closed, the payload
// of its delivery comes with it and is recorded as delivered.
func (ss *ServeSession) answered(ctx context.Context, v RequestView) json.RawMessage {
	out := answerOf(v)
	if v.State != store.ReqPending {
		if payload, err := ss.s.deliverRead(ctx, v); err != nil {
			return ErrorJSON(err)
		} else if payload != "" {
			out["result"] = onceEach(out, payload)
		}
	}
	return OKJSON(out)
}

// deliverRead records that the agent has read what its closed request's
// newest delivery carries, and returns that payload ("" when it has none).
func (s *Service) deliverRead(ctx context.Context, v RequestView) (string, error) {
	if len(v.Deliveries) == 0 {
		return "", nil
	}
	last := v.Deliveries[len(v.Deliveries)-1]
	ds, err := s.store.RequestDeliveries(ctx, s.reader(), v.ID)
	if err != nil {
		return "", err
	}
	var payload string
	if i := slices.IndexFunc(ds, func(d store.Delivery) bool { return d.ID == last.ID }); i >= 0 {
		payload = ds[i].Payload
	}
	if last.State == store.DeliveryDelivered {
		return payload, nil
	}
	err = s.write(ctx, func(tx *txn) error {
		open, err := s.store.RequestDeliveries(ctx, tx, v.ID, store.DeliveryPending, store.DeliveryUnknown)
		if err != nil {
			return err
		}
		tx.emit(Event{Kind: EvRequest, ChatID: v.ChatID, RequestID: v.ID})
		return s.setDeliveries(ctx, tx, open, delivered)
	})
	return payload, err
}

// onceEach is a delivery's payload without what the result around it
// already says (the request id, the answer's values and origins), so an
// answered result carries each thing once.
func onceEach(out map[string]any, payload string) any {
	var p map[string]any
	if json.Unmarshal([]byte(payload), &p) != nil {
		return json.RawMessage(payload)
	}
	answer, _ := out["answer"].(map[string]any)
	for k := range p {
		if k == "origin" {
			delete(out, k) // the payload's is the whole origin, its skill included
		} else if _, dup := out[k]; dup {
			delete(p, k)
		} else if _, dup := answer[k]; dup {
			delete(p, k)
		}
	}
	return p
}
