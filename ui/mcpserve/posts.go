package mcpserve

import (
	"net/http"
	"sync"
	"time"
)

// posts counts each HTTP session's POSTs in flight. A client that deletes
// its session while it waits for an answer still receives that call's
// result (its request, expired): the SDK cuts a call's stream when it
// closes the session, so the DELETE goes on only once the session's POSTs
// have returned, or after drainWithin.
type posts struct {
	mu      sync.Mutex
	n       map[string]int
	changed chan struct{} // closed and replaced when a POST returns
}

// drainWithin bounds how long a DELETE waits for its session's calls; an
// ended session's waits return at once, so only a stuck call reaches it.
const drainWithin = 5 * time.Second

func newPosts() *posts { return &posts{n: map[string]int{}, changed: make(chan struct{})} }

// track counts r while next serves it, when it is a POST of a session.
func (p *posts) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		if r.Method != http.MethodPost || id == "" {
			next.ServeHTTP(w, r)
			return
		}
		p.mu.Lock()
		p.n[id]++
		p.mu.Unlock()
		defer func() {
			p.mu.Lock()
			if p.n[id]--; p.n[id] <= 0 {
				delete(p.n, id)
			}
			close(p.changed)
			p.changed = make(chan struct{})
			p.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}

// drain waits until session id has no POST in flight, at most within.
func (p *posts) drain(id string, within time.Duration) {
	limit := time.NewTimer(within)
	defer limit.Stop()
	for {
		p.mu.Lock()
		n, changed := p.n[id], p.changed
		p.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-limit.C:
			return
		}
	}
}
