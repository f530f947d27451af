package chat

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"followup/store"
)

// Serve sessions (docs/mcp-serve.md): an external agent connected through
// `followup mcp serve` asks the user in a chat of its own, with the same
// input tools, rules, limits and receipts as followup's own agent, but no
// run: its requests are owned by the session, and their answers reach the
// agent when it reads them (input_read_answer, input_wait), which records
// their delivery. The session's chat and its row appear with its first
// request, so a client that only lists the tools leaves nothing behind.
//
// While a session is open its process holds the session's byte of the
// lease file. A session ended by its client, or found with its byte free
// (its process died), is ended here: its pending requests expire
// (disconnected), and an answer it never read waits for its client to come
// back (reattach.go).

// ServeClient is the MCP client of a serve session.
type ServeClient struct {
	Name      string // clientInfo.name; may be ""
	Version   string
	Transport string // stdio or http
	// Key tells which client may take back the questions of its ended
	// sessions: a digest of its HTTP bearer token, "" over stdio.
	Key     string
	Started time.Time
}

// ServeSession is one MCP client's session. Its methods are the serve
// tools: each takes the tool's raw arguments and returns the docs/input-requests.md
// result, for this session's requests only.
type ServeSession struct {
	s      *Service
	id     string
	client ServeClient

	mu      sync.Mutex // serialises the session's requests and its end
	row     *store.Session
	lease   *store.Lease
	ended   bool
	touched int64           // when its activity was last written (active)
	asked   map[string]bool // ids of the requests it opened or took back, to tell a deleted one from a wrong id
}

// OpenServeSession starts the session of an MCP client; nothing is written
// until it asks.
func (s *Service) OpenServeSession(ctx context.Context, c ServeClient) (*ServeSession, error) {
	c.Name = clip(c.Name, maxOwnerName)
	if c.Started.IsZero() {
		c.Started = s.now()
	}
	return &ServeSession{s: s, id: NewID("ss"), client: c, asked: map[string]bool{}}, nil
}

// ID is the session's id (its requests name it in their origin).
func (ss *ServeSession) ID() string { return ss.id }

// serveTitle names a session's chat after its client and when it began,
// to the second: the sessions of one client (every `claude -p` is one)
// within a minute are told apart, and those of the same second are
// numbered after the first ("… (2)").
func (ss *ServeSession) serveTitle(ctx context.Context, tx *txn) (string, error) {
	c := ss.client
	title := fmt.Sprintf("%s · %s", cmp.Or(c.Name, "MCP client"), c.Started.Local().Format("Jan 2 15:04:05"))
	n, err := ss.s.store.CountTitled(ctx, tx, title, c.Started.Truncate(time.Second).UnixMilli())
	if n > 0 {
		title = fmt.Sprintf("%s (%d)", title, n+1)
	}
	return title, err
}

// Request is input_request: it opens a request in the session's chat,
// creating the chat with the session's first request.
func (ss *ServeSession) Request(ctx context.Context, args json.RawMessage) json.RawMessage {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ended {
		return ErrorJSON(errSessionEnded)
	}
	// Overdue requests expire first (see openRequest), and the sessions of
	// a server killed a moment ago end, so their questions can be taken
	// back.
	if err := ss.s.expireDue(ctx); err != nil {
		return ErrorJSON(err)
	}
	hash := canonicalHash("", args)
	if res, ok, err := ss.reattach(ctx, args, hash); ok || err != nil {
		return result(res, err)
	}
	var made *store.Session
	var lease *store.Lease
	res, err := ss.s.openRequest(ctx, args, hash, func(tx *txn) (*asker, error) {
		row, err := ss.current(ctx, tx)
		if err != nil {
			return nil, err
		}
		if row == nil {
			if row, lease, err = ss.create(ctx, tx, ""); err != nil {
				return nil, err
			}
			made = row
		}
		return &asker{chatID: row.ChatID, session: row,
			owner: Owner{Kind: OwnerMCPClient, Name: ss.client.Name}}, nil
	})
	switch {
	case err != nil && lease != nil:
		lease.Release() // the session's row was rolled back with the request
	case err == nil && made != nil:
		ss.adopt(made, lease)
	}
	if err == nil {
		ss.asked[res.RequestID] = true
	}
	return result(res, err)
}

// errSessionEnded refuses a call on a session that has ended.
var errSessionEnded = errorf(CodeTargetClosed, "this MCP session has ended")

// current re-reads the session's row; nil when there is none yet, or when
// the user deleted its chat (which took the row along) or archived it (the
// row ends, in tx): the next request starts a new chat.
func (ss *ServeSession) current(ctx context.Context, tx store.Handle) (*store.Session, error) {
	if ss.row == nil {
		return nil, nil
	}
	row, err := ss.s.store.GetSession(ctx, tx, ss.row.ID)
	if err == store.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if row.State != store.SessionOpen {
		return nil, errSessionEnded
	}
	c, err := ss.s.store.GetChat(ctx, tx, row.ChatID)
	if err != nil {
		return nil, err
	}
	if c.State == store.ChatArchived {
		// The user put the chat away (its waiting questions expired with
		// it): the agent's next question is asked in a chat of its own.
		if _, err := ss.s.store.EndSession(ctx, tx, row.ID, endClosed, ss.s.nowMS()); err != nil {
			return nil, err
		}
		return nil, nil
	}
	return &row, nil
}

// create writes the session's row, in chatID or else in a new chat, and
// takes the row's byte of the lease file before the transaction commits:
// no other process ever sees the session open without its holder.
func (ss *ServeSession) create(ctx context.Context, tx *txn, chatID string) (*store.Session, *store.Lease, error) {
	now := ss.s.nowMS()
	if chatID == "" {
		chatID = NewID("ch")
		title, err := ss.serveTitle(ctx, tx)
		if err != nil {
			return nil, nil, err
		}
		if err := ss.s.store.InsertChat(ctx, tx, store.Chat{ID: chatID, Title: title, State: store.ChatActive,
			CreatedAt: now, UpdatedAt: now}); err != nil {
			return nil, nil, err
		}
	}
	id := ss.id
	if ss.row != nil {
		id = NewID("ss") // the first row went with its chat
	}
	row, err := ss.s.store.InsertSession(ctx, tx, store.Session{ID: id, ChatID: chatID, ClientName: ss.client.Name,
		ClientVersion: ss.client.Version, Transport: ss.client.Transport, ClientKey: ss.client.Key, ActiveAt: now, CreatedAt: now})
	if err != nil {
		return nil, nil, err
	}
	lease, err := ss.s.db.AcquireSessionLease(row.Seq)
	if err != nil {
		return nil, nil, err
	}
	tx.emit(Event{Kind: EvChat, ChatID: chatID})
	return &row, lease, nil
}

// adopt makes row, just created with its lease, the session's, letting go
// of the lease of the row a deleted chat took with it, if any; under ss.mu.
func (ss *ServeSession) adopt(row *store.Session, lease *store.Lease) {
	ss.lease.Release()
	ss.row, ss.lease, ss.touched = row, lease, row.ActiveAt
}

// End ends the session because its client went away: its pending requests
// expire (disconnected) at once, and its chat and answers stay readable.
func (ss *ServeSession) End(ctx context.Context) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ended {
		return nil
	}
	ss.ended = true
	if ss.row == nil {
		return nil
	}
	err := ss.s.endSessions(ctx, []store.Session{*ss.row}, false)
	// Freed last: another process that sees the byte free finds the
	// session ended already (or ends it itself if this write failed).
	ss.lease.Release()
	return err
}

// Reasons a serve session ended.
const (
	endClosed = "closed" // its client ended it
	endLost   = "lost"   // its process died
)

// endSessions ends each open session of ss and expires what it left
// pending. lost marks sessions found dead by their free lease byte: each
// is ended only if its byte is still free inside the transaction.
func (s *Service) endSessions(ctx context.Context, ss []store.Session, lost bool) error {
	return s.write(ctx, func(tx *txn) error {
		for _, sess := range ss {
			reason := endClosed
			if lost {
				if held, err := s.db.SessionLeaseHeld(sess.Seq); err != nil || held {
					continue
				}
				reason = endLost
			}
			now := s.nowMS()
			ok, err := s.store.EndSession(ctx, tx, sess.ID, reason, now)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			rs, err := s.store.ListRequests(ctx, tx, store.RequestFilter{SessionID: sess.ID})
			if err != nil {
				return err
			}
			for _, r := range rs {
				if r.State == store.ReqPending {
					// Nobody is left to tell: no delivery.
					if err := s.closeRequest(ctx, tx, &r, store.ReqExpired, ReasonDisconnected); err != nil {
						return err
					}
					continue
				}
				if err := s.keepUnread(ctx, tx, r); err != nil {
					return err
				}
			}
			tx.emit(Event{Kind: EvChat, ChatID: sess.ChatID})
		}
		return nil
	})
}

// ReasonChatArchived expires the waiting questions of a serve session
// whose chat the user archived: its agent is told (input_wait returns
// them expired) instead of waiting on a question the pending list no
// longer shows. The session may go on asking elsewhere only after the chat
// is unarchived (an archived chat refuses input_request).
const ReasonChatArchived = "chat_archived"

// expireArchivedAsks expires, in tx, the pending requests of chatID's open
// serve sessions (ReasonChatArchived), each with a delivery telling its
// agent.
func (s *Service) expireArchivedAsks(ctx context.Context, tx *txn, chatID string) error {
	open, err := s.store.OpenSessions(ctx, tx)
	if err != nil {
		return err
	}
	for _, sess := range open {
		if sess.ChatID != chatID {
			continue
		}
		rs, err := s.store.ListRequests(ctx, tx, store.RequestFilter{SessionID: sess.ID, State: store.ReqPending})
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := s.expireRequest(ctx, tx, &r, ReasonChatArchived); err != nil {
				return err
			}
		}
	}
	return nil
}

// ReasonDisconnected closes a request whose asker's connection ended.
const ReasonDisconnected = "disconnected"

// keepUnread notes on the deliveries of r its agent never read that they
// wait for its client to come back (reattach.go), until r's lifetime ends.
func (s *Service) keepUnread(ctx context.Context, tx store.Handle, r store.Request) error {
	ds, err := s.store.RequestDeliveries(ctx, tx, r.ID, store.DeliveryPending, store.DeliveryUnknown)
	if err != nil {
		return err
	}
	until := DeadlineWords(time.UnixMilli(lifetimeEnd(r)), s.now())
	return s.setDeliveries(ctx, tx, ds, func(d *store.Delivery) bool {
		d.LastError = "the MCP session ended before the agent read it; its client may take it back until " + until
		return true
	})
}

// expireDisconnected ends the sessions among open (seqs, Lookout.Sessions)
// whose process has died: their byte of the lease file is free.
func (s *Service) expireDisconnected(ctx context.Context, open []int64) error {
	dead, err := s.db.LostSessions(ctx, open)
	if err != nil || len(dead) == 0 {
		return err
	}
	return s.endSessions(ctx, dead, true)
}
