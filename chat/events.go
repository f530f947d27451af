package chat

import (
	"context"
	"strings"
	"sync"
)

// Event kinds.
const (
	EvMessage  = "message"  // a transcript message was added
	EvRequest  = "request"  // a request opened, changed or closed
	EvRun      = "run"      // a run changed state
	EvStream   = "stream"   // streamed assistant text of a model call in progress (see Event)
	EvThinking = "thinking" // a model call started (On) or ended
	EvChat     = "chat"     // a chat was created, archived or deleted
	EvExternal = "external" // another process changed the database
	EvApproval = "approval" // an MCP tool approval opened or was decided (ApprovalID)
	EvToolStep = "toolstep" // an MCP tool call started, waits or ended (RunID, ToolCallID)
	EvMCP      = "mcp"      // an MCP server's state or tools changed (MCPStatus)
	EvProgress = "progress" // an MCP server's progress on a call (ToolCallID, Progress); never stored
)

// Event tells a subscriber what changed; it re-reads what it shows.
//
// An EvStream event carries text the model is streaming for RunID: Delta
// is appended to what the run streamed so far, and Reset (with no Delta)
// discards it all (a retried call starts again; a call that ended is
// recorded as a message, announced by EvMessage).
type Event struct {
	Kind      string
	ChatID    string
	RunID     string
	RequestID string
	// ApprovalID and ToolCallID name an EvApproval's approval and an
	// EvToolStep's or EvProgress's call.
	ApprovalID string
	ToolCallID string
	Delta      string
	// Progress is an EvProgress's "3/10 · message", from the server: sanitise it where drawn.
	Progress string
	Reset    bool
	On       bool
}

// Broker fans events out to subscribers. Each subscriber receives every
// event, in the order published, and Publish never waits for one:
//
//   - while a subscriber is behind, consecutive EvStream deltas of the same
//     run queued for it are merged into one (their text concatenated), and
//     a Reset drops the stream events of its run queued just before it
//     (they would be discarded anyway). Nothing else of a stream is dropped,
//     so the streamed text a subscriber assembles is exactly what was
//     streamed, however slow it is;
//   - events keep their order, so a run's deltas always arrive before the
//     EvMessage and EvRun events published after them (the recorded reply,
//     the run's end): a subscriber never sees a delta after its run ended;
//   - an EvProgress queued last replaces the one of the same call before it.
//
// A subscriber that reads once per frame thus gets at most one stream
// event per run per read, whatever the rate of deltas.
type Broker struct {
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
}

// NewBroker returns a broker with no subscribers.
func NewBroker() *Broker { return &Broker{subs: map[*subscriber]struct{}{}} }

// subscriber is one subscription's queue and the goroutine that hands its
// events over one at a time.
type subscriber struct {
	mu    sync.Mutex
	queue []queued
	wake  chan struct{} // a value when the queue was empty and got an event
	done  chan struct{} // closed when the subscription ends
	out   chan Event
}

// Subscribe returns a channel of events that closes when ctx ends or the
// broker is closed.
func (b *Broker) Subscribe(ctx context.Context) <-chan Event {
	s := &subscriber{wake: make(chan struct{}, 1), done: make(chan struct{}), out: make(chan Event)}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		close(s.out)
		return s.out
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go s.pump()
	go func() {
		select {
		case <-ctx.Done():
		case <-s.done:
			return
		}
		b.mu.Lock()
		if _, ok := b.subs[s]; ok {
			delete(b.subs, s)
			close(s.done)
		}
		b.mu.Unlock()
	}()
	return s.out
}

// Publish queues es, in order, for every subscriber.
func (b *Broker) Publish(es ...Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		for _, e := range es {
			s.push(e)
		}
	}
}

// Close ends every subscription; later ones get a closed channel.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for s := range b.subs {
		delete(b.subs, s)
		close(s.done)
	}
}

// queued is an event waiting for its subscriber; the deltas merged into a
// stream event collect in text (appending to one string each time would
// copy the whole text again per delta).
type queued struct {
	e    Event
	text *strings.Builder
}

// push queues e, merging it into the stream events of its run at the tail
// of the queue.
func (s *subscriber) push(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Kind == EvStream {
		if e.Reset {
			for n := len(s.queue); n > 0 && sameStream(s.queue[n-1].e, e); n-- {
				s.queue = s.queue[:n-1]
			}
		} else if n := len(s.queue); n > 0 && sameStream(s.queue[n-1].e, e) && !s.queue[n-1].e.Reset {
			q := &s.queue[n-1]
			if q.text == nil {
				q.text = &strings.Builder{}
				q.text.WriteString(q.e.Delta)
			}
			q.text.WriteString(e.Delta)
			return
		}
	}
	if n := len(s.queue); n > 0 && e.Kind == EvProgress && s.queue[n-1].e.Kind == EvProgress &&
		s.queue[n-1].e.RunID == e.RunID && s.queue[n-1].e.ToolCallID == e.ToolCallID {
		s.queue[n-1].e = e // only the latest progress of a call matters
		return
	}
	s.queue = append(s.queue, queued{e: e})
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func sameStream(a, b Event) bool {
	return a.Kind == EvStream && a.ChatID == b.ChatID && a.RunID == b.RunID
}

// pump hands the queued events over in order until the subscription ends.
func (s *subscriber) pump() {
	defer close(s.out)
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-s.done:
				return
			}
		}
		q := s.queue[0]
		s.queue[0] = queued{}
		s.queue = s.queue[1:]
		s.mu.Unlock()
		e := q.e
		if q.text != nil {
			e.Delta = q.text.String()
		}
		select {
		case s.out <- e:
		case <-s.done:
			return
		}
	}
}
