package chat

import (
	"context"
	"sync"
)

// Event kinds.
const (
	EvMessage  = "message"  // a transcript message was added
	EvRequest  = "request"  // a request opened, changed or closed
	EvRun      = "run"      // a run changed state
	EvStream   = "stream"   // streamed assistant text (Delta; Reset discards)
	EvThinking = "thinking" // a model call started (On) or ended
	EvChat     = "chat"     // a chat was created, archived or deleted
	EvExternal = "external" // another process changed the database
)

// Event tells the UI what changed; it re-reads what it shows.
type Event struct {
	Kind      string
	ChatID    string
	RunID     string
	RequestID string
	Delta     string
	Reset     bool
	On        bool
}

// Broker fans events out to subscribers. Streaming deltas may be dropped
// for a slow subscriber; every other event is delivered.
type Broker struct {
	mu   sync.Mutex
	subs map[chan Event]chan struct{} // subscriber -> closed when it leaves
}

// NewBroker returns a broker with no subscribers.
func NewBroker() *Broker { return &Broker{subs: map[chan Event]chan struct{}{}} }

// Subscribe returns a channel of events that closes when ctx ends.
func (b *Broker) Subscribe(ctx context.Context) <-chan Event {
	ch := make(chan Event, 256)
	done := make(chan struct{})
	b.mu.Lock()
	b.subs[ch] = done
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		close(done) // frees a Publish blocked on this subscriber
		b.mu.Lock()
		delete(b.subs, ch)
		close(ch)
		b.mu.Unlock()
	}()
	return ch
}

// Publish sends e to every subscriber.
func (b *Broker) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch, done := range b.subs {
		if e.Kind == EvStream {
			select {
			case ch <- e:
			default:
			}
			continue
		}
		select {
		case ch <- e:
		case <-done:
		}
	}
}
