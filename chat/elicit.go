package chat

import (
	"context"
	"errors"
	"time"

	"followup/agent/mcp"
	"followup/store"
)

// A classic elicitation (elicitation/create during a tool call) lives only
// as long as its connection (docs/mcp.md): the process driving the run
// keeps the connection and waits until the request is answered — in its
// chat screen, or by `followup answer` from another shell — cancelled or
// closed otherwise. The request is bound to the run's lease: if that
// process dies, the expiry sweep finds the lease free and expires the
// request disconnected, so nothing is ever answered into the void.

// ReasonWithdrawn closes a request whose MCP server took it back.
const ReasonWithdrawn = "withdrawn"

// Crash steps of a classic elicitation: right after its request is
// committed, and when its reply is read to be handed to the server (it is
// recorded sent with the handing over).
const (
	CrashElicitationOpen = "elicitation-open"
	CrashServerReply     = "server-reply"
)

// A waiting elicitation (or link) wakes on the host's events, which bring
// other processes' commits too (Subscribe's watch of the database's
// files): an answer from another window or the CLI is seen as it lands,
// and nothing runs while nothing changes. A deadline passing, which no
// commit announces, wakes a question at its deadline, and a link's wait
// every elicitDeadlineEvery.
var elicitDeadlineEvery = time.Second

// Elicit opens the server's question as an input request of the call's run
// and waits for the user (mcp.Elicitor).
func (h *mcpHost) Elicit(ctx context.Context, el mcp.Elicitation) (mcp.Reply, error) {
	s := h.s
	drive, ok := h.drive(el.Origin.RunID)
	if !ok || el.Origin.ToolCallID == "" {
		return mcp.Reply{}, mcp.InvalidParams("followup asks its user only during a tool call it makes")
	}
	var r store.Request
	var ended bool
	err := s.write(ctx, func(tx *txn) error {
		run, err := s.store.GetRun(ctx, tx, el.Origin.RunID)
		if err != nil {
			return err
		}
		if ended = store.RunEnded(run.State); ended {
			return nil
		}
		if r, err = h.openServerRequest(ctx, tx, run, el.Origin.ToolCallID, el, true, ""); err != nil {
			return err
		}
		tx.emit(requestEvent(r), Event{Kind: EvMessage, ChatID: r.ChatID, RunID: run.ID})
		_, err = s.moveRun(ctx, tx, &run, store.RunRunning, store.RunWaitingInput)
		return err
	})
	var ce *Error
	switch {
	case errors.As(err, &ce) && ce.Code == CodeRequestInvalid:
		return mcp.Reply{}, mcp.InvalidParams(ce.Message + problemText(ce))
	case err != nil:
		return mcp.Reply{}, err
	case ended:
		return mcp.Reply{Action: mcp.ActionCancel}, nil
	}
	s.checkpoint(CrashElicitationOpen)
	key := stepKey{el.Origin.RunID, el.Origin.ToolCallID}
	if drive.noWait {
		h.giveUp(key, "the server asked a question during the call and it was given up at once (--no-wait): the question expired and the server was told cancel")
		return h.expireLive(r, ReasonDisconnected, true)
	}
	return h.waitLive(ctx, drive, r, key)
}

// waitLive waits until the request closes (by this process, another one,
// a stop), the server withdraws it, or the drive ends.
func (h *mcpHost) waitLive(ctx context.Context, drive driveInfo, r store.Request, key stepKey) (mcp.Reply, error) {
	defer h.s.await(r.ID)()
	var deadline <-chan time.Time // liveReply expires it
	if r.ExpiresAt.Valid {
		t := time.NewTimer(time.Until(time.UnixMilli(r.ExpiresAt.Int64)) + time.Millisecond)
		defer t.Stop()
		deadline = t.C
	}
	var rp mcp.Reply
	err := h.s.waitFor(ctx, drive.ctx.Done(), deadline, func(ev Event) bool { return mayClose(ev, r) }, func() (closed bool, err error) {
		rp, closed, err = h.liveReply(r.ID)
		return closed, err
	})
	switch {
	case err == errDriveEnded:
		// The drive ends (a stop closes the request first; quitting
		// does not): what the request says is what the server gets.
		if rp, closed, err := h.liveReply(r.ID); err != nil || closed {
			return rp, err
		}
		h.giveUp(key, "followup stopped driving the task while the server's question was open")
		return h.expireLive(r, ReasonDisconnected, true)
	case err != nil && err == ctx.Err():
		reason := ReasonWithdrawn
		if errors.Is(context.Cause(ctx), mcp.ErrConnectionEnded) {
			reason = ReasonDisconnected
		}
		h.expireLive(r, reason, false)
		return mcp.Reply{}, err
	}
	return rp, err
}

// mayClose reports whether ev may tell of the request's end: its own
// event (another process's change to it too: awaited.go), one naming no
// request in its chat (a stop), or its run's or chat's change.
func mayClose(ev Event, r store.Request) bool {
	switch ev.Kind {
	case EvRequest:
		return ev.RequestID == r.ID || ev.RequestID == "" && ev.ChatID == r.ChatID
	case EvRun:
		return ev.RunID == r.RunID.String
	case EvChat:
		return ev.ChatID == r.ChatID
	}
	return false
}

// liveReply reads the request: once it is closed, the reply its server
// gets, recorded as delivered.
func (h *mcpHost) liveReply(id string) (mcp.Reply, bool, error) {
	s := h.s
	ctx := context.Background()
	if err := s.expireDue(ctx); err != nil {
		return mcp.Reply{}, false, err
	}
	r, err := s.store.GetRequest(ctx, s.reader(), id)
	if err != nil {
		return mcp.Reply{}, false, err
	}
	if r.State == store.ReqPending {
		return mcp.Reply{}, false, nil
	}
	var rp mcp.Reply
	err = s.db.Write(ctx, func(tx store.Handle) error {
		if rp, err = s.replyOf(ctx, tx, r); err != nil {
			return err
		}
		s.checkpoint(CrashServerReply)
		return s.markServerDelivered(ctx, tx, r.ID)
	})
	return rp, true, err
}

// expireLive expires a live request for reason (unless it closed
// meanwhile: then its own reply stands); sent says whether the server
// still receives the cancel.
func (h *mcpHost) expireLive(r store.Request, reason string, sent bool) (mcp.Reply, error) {
	s := h.s
	ctx := context.Background()
	err := s.write(ctx, func(tx *txn) error {
		cur, err := s.store.GetRequest(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		if cur.State == store.ReqPending {
			if err := s.closeRequest(ctx, tx, &cur, store.ReqExpired, reason); err != nil {
				return err
			}
		}
		if sent {
			return s.markServerDelivered(ctx, tx, r.ID)
		}
		return nil
	})
	if err != nil {
		return mcp.Reply{}, err
	}
	if r, err = s.store.GetRequest(ctx, s.reader(), r.ID); err != nil {
		return mcp.Reply{}, err
	}
	return s.replyOf(ctx, s.reader(), r)
}

// markServerDelivered records that the server received the request's
// reply.
func (s *Service) markServerDelivered(ctx context.Context, tx store.Handle, requestID string) error {
	ds, err := s.store.RequestDeliveries(ctx, tx, requestID)
	if err != nil {
		return err
	}
	return s.setDeliveries(ctx, tx, ds, func(d *store.Delivery) bool {
		return d.Target == store.TargetMCPServer && d.State != store.DeliveryDelivered && delivered(d)
	})
}

// expireStaleElicitations expires disconnected the open classic
// elicitations of a run whose drive is beginning: this process now holds
// the run's lease, so whoever asked them is gone (the sweep usually got
// there first).
func (s *Service) expireStaleElicitations(ctx context.Context, run store.Run) error {
	return s.expireClassic(ctx, func(runSeq int64) (bool, error) { return runSeq == run.Seq, nil })
}

// expireOrphanedElicitations expires disconnected the open classic
// elicitations whose run's lease no live process holds: their connection
// died with that process.
func (s *Service) expireOrphanedElicitations(ctx context.Context) error {
	return s.expireClassic(ctx, func(runSeq int64) (bool, error) {
		held, err := s.db.LeaseHeld(runSeq)
		return !held, err
	})
}

// expireClassic expires disconnected the open classic elicitations whose
// asker gone says is gone, by their run's lease. Usually none is open and
// this is one read of an empty index.
func (s *Service) expireClassic(ctx context.Context, gone func(runSeq int64) (bool, error)) error {
	open, err := s.store.OpenClassicRequests(ctx, s.reader())
	if err != nil {
		return err
	}
	var ids []string
	for _, c := range open {
		if g, err := gone(c.RunSeq); err != nil {
			return err
		} else if g {
			ids = append(ids, c.RequestID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.expireWhere(ctx, ReasonDisconnected, func(tx *txn) ([]store.Request, error) {
		var rs []store.Request
		for _, id := range ids {
			r, err := s.store.GetRequest(ctx, tx, id)
			if err != nil {
				return nil, err
			}
			if r.State == store.ReqPending {
				rs = append(rs, r)
			}
		}
		return rs, nil
	})
}

// failUnsentReplies records failed the replies to classic elicitations
// that a process which has died never handed to its server (its run's
// lease is free): its connection ended with it, so they can never be sent,
// and nothing may say "to be sent" forever. A start of followup does it.
func (s *Service) failUnsentReplies(ctx context.Context) error {
	unsent, err := s.store.UnsentClassicReplies(ctx, s.reader())
	if err != nil || len(unsent) == 0 || s.db.ReadOnly() != "" {
		return err
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		for _, c := range unsent {
			if held, err := s.db.LeaseHeld(c.RunSeq); err != nil || held {
				return err
			}
			ds, err := s.store.RequestDeliveries(ctx, tx, c.RequestID, store.DeliveryPending)
			if err == nil {
				err = s.setDeliveries(ctx, tx, ds, func(d *store.Delivery) bool {
					d.State, d.LastError = store.DeliveryFailed, "followup stopped before handing it over, and the server's connection ended with it"
					return d.Target == store.TargetMCPServer
				})
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
