package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"followup/chat"
)

// fakeInbox stands in for chat in this package's tests: it keeps each
// session's requests in memory, and answering one wakes its waiters.
type fakeInbox struct {
	mu       sync.Mutex
	sessions []*fakeSession
	opened   chan *fakeSession // every opened session, in order
	next     int
	changed  chan struct{} // closed and replaced on every change
}

func newFakeInbox() *fakeInbox {
	return &fakeInbox{opened: make(chan *fakeSession, 16), changed: make(chan struct{})}
}

type fakeRequest struct {
	id, state, reason string
	args              json.RawMessage
	answer            map[string]any
}

type fakeSession struct {
	inbox    *fakeInbox
	client   Client
	requests map[string]*fakeRequest
	ended    bool
	waited   []time.Duration // the timeout of each Wait
}

func (f *fakeInbox) OpenSession(ctx context.Context, c Client) (Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := &fakeSession{inbox: f, client: c, requests: map[string]*fakeRequest{}}
	f.sessions = append(f.sessions, s)
	f.opened <- s
	return s, nil
}

// changedLocked wakes every waiter; f.mu is held.
func (f *fakeInbox) changedLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// answer confirms values for id, as the user would in the chat screen.
func (f *fakeInbox) answer(id string, values map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		if r, ok := s.requests[id]; ok {
			r.state, r.answer = "answered", values
		}
	}
	f.changedLocked()
}

func (f *fakeInbox) isEnded(s *fakeSession) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return s.ended
}

func notFound(id string) json.RawMessage {
	return chat.ErrorJSON(&chat.Error{Code: chat.CodeNotFound, Message: fmt.Sprintf("no request with id %q in this chat", id)})
}

func (s *fakeSession) Waiting(ctx context.Context) bool {
	s.inbox.mu.Lock()
	defer s.inbox.mu.Unlock()
	for _, r := range s.requests {
		if r.state == "pending" {
			return true
		}
	}
	return false
}

func (s *fakeSession) Capabilities(ctx context.Context, args json.RawMessage) json.RawMessage {
	return chat.OKJSON(map[string]any{"capabilities": map[string]any{"fieldTypes": []string{"text"}}})
}

func (s *fakeSession) List(ctx context.Context, args json.RawMessage) json.RawMessage {
	s.inbox.mu.Lock()
	defer s.inbox.mu.Unlock()
	items := []map[string]any{}
	for _, r := range s.requests {
		items = append(items, map[string]any{"id": r.id, "state": r.state})
	}
	return chat.OKJSON(map[string]any{"requests": items})
}

func (s *fakeSession) Request(ctx context.Context, args json.RawMessage) json.RawMessage {
	var a struct {
		RequestKey string `json:"requestKey"`
	}
	if json.Unmarshal(args, &a) != nil || a.RequestKey == "" {
		return chat.ErrorJSON(&chat.Error{Code: chat.CodeRequestInvalid, Message: "the input request is invalid",
			Details: map[string]any{"problems": []map[string]string{{"path": "/requestKey", "message": "required"}}}})
	}
	f := s.inbox
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	r := &fakeRequest{id: fmt.Sprintf("rq_%d", f.next), state: "pending", args: args}
	s.requests[r.id] = r
	f.changedLocked()
	return chat.OKJSON(map[string]any{"requestId": r.id, "state": r.state})
}

func (s *fakeSession) read(id string) json.RawMessage {
	r, ok := s.requests[id]
	if !ok {
		return notFound(id)
	}
	var answer any
	if r.answer != nil {
		answer = map[string]any{"values": r.answer}
	}
	return chat.OKJSON(map[string]any{"requestId": r.id, "state": r.state, "closedReason": r.reason, "answer": answer})
}

func (s *fakeSession) ReadAnswer(ctx context.Context, args json.RawMessage) json.RawMessage {
	var a struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal(args, &a)
	s.inbox.mu.Lock()
	defer s.inbox.mu.Unlock()
	return s.read(a.RequestID)
}

func (s *fakeSession) Cancel(ctx context.Context, args json.RawMessage) json.RawMessage {
	var a struct {
		RequestID string `json:"requestId"`
	}
	json.Unmarshal(args, &a)
	f := s.inbox
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := s.requests[a.RequestID]
	if !ok {
		return notFound(a.RequestID)
	}
	r.state = "cancelled"
	f.changedLocked()
	return chat.OKJSON(map[string]any{"receipt": map[string]any{"requestId": r.id, "kind": "cancel"}})
}

func (s *fakeSession) Wait(ctx context.Context, id string, timeout time.Duration) json.RawMessage {
	s.inbox.mu.Lock()
	s.waited = append(s.waited, timeout)
	s.inbox.mu.Unlock()
	deadline := time.After(timeout)
	for {
		s.inbox.mu.Lock()
		r, ok := s.requests[id]
		if !ok || r.state != "pending" {
			defer s.inbox.mu.Unlock()
			return s.read(id)
		}
		changed := s.inbox.changed
		s.inbox.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			s.inbox.mu.Lock()
			defer s.inbox.mu.Unlock()
			return s.read(id)
		case <-ctx.Done():
			return chat.ErrorJSON(ctx.Err())
		}
	}
}

func (s *fakeSession) End(ctx context.Context) error {
	f := s.inbox
	f.mu.Lock()
	defer f.mu.Unlock()
	s.ended = true
	for _, r := range s.requests {
		if r.state == "pending" {
			r.state, r.reason = "expired", "disconnected"
		}
	}
	f.changedLocked()
	return nil
}
