// Package agenttest is the test kit of followup's model providers: a
// scripted model server on loopback that speaks the OpenAI chat-completions
// and Anthropic Messages wire formats, the replies tests script with it,
// and a walker for the decoded JSON they check. Tests never leave the
// machine.
package agenttest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Step answers one call.
type Step func(w http.ResponseWriter, r *http.Request)

// Request is what one call sent.
type Request struct {
	Path   string
	Header http.Header
	Body   map[string]any // the decoded JSON body (nil when it was not JSON)
	Raw    []byte
}

// Server is a scripted model server on 127.0.0.1: each call is answered by
// the next step of its script (New, Then); when the script is spent, by
// the fallback (Fallback), else the call fails the test. It records what
// every call sent, and closes when the test ends.
type Server struct {
	URL string

	t        testing.TB
	srv      *httptest.Server
	mu       sync.Mutex
	script   []Step
	reqs     []Request
	fallback func(w http.ResponseWriter, r Request, n int)
	stalled  chan struct{}
}

// New starts a server answering its first calls with steps.
func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := &Server{t: t, script: steps, stalled: make(chan struct{}, 8)}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	if !strings.HasPrefix(s.srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the fake model server is not on loopback: %s", s.srv.URL)
	}
	s.URL = s.srv.URL
	return s
}

// Then queues steps for the calls after those already scripted.
func (s *Server) Then(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

// Fallback answers every call that finds the script spent: a model that
// decides from the request alone (n is the call's index), so a call
// repeated after a crash gets the same answer.
func (s *Server) Fallback(f func(w http.ResponseWriter, r Request, n int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = f
}

// Close stops the server now (it also stops when the test ends).
func (s *Server) Close() { s.srv.Close() }

// Calls is the number of calls made so far.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// Request is what call i (from 0) sent; it fails the test when that call
// was not made.
func (s *Server) Request(i int) Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.reqs) {
		s.t.Fatalf("call %d was not made (%d calls)", i+1, len(s.reqs))
	}
	return s.reqs[i]
}

// Stall is a step that begins a streamed reply and holds it until the
// client goes away; Stalled receives a value each time one begins.
func (s *Server) Stall() Step {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		s.stalled <- struct{}{}
		<-r.Context().Done()
	}
}

// Stalled receives a value each time a Stall step begins.
func (s *Server) Stalled() <-chan struct{} { return s.stalled }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		s.t.Errorf("request body is not JSON: %v: %s", err, raw)
	}
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	var step Step
	if len(s.script) > 0 {
		step, s.script = s.script[0], s.script[1:]
	}
	fallback := s.fallback
	s.mu.Unlock()
	switch {
	case step != nil:
		step(w, r)
	case fallback != nil:
		fallback(w, req, n)
	default:
		s.t.Errorf("unexpected call %d to %s", n+1, r.URL.Path)
		http.Error(w, "no more steps", http.StatusTeapot)
	}
}

// Path walks decoded JSON by object keys (strings) and array indexes
// (ints); a step that does not fit gives nil.
func Path(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k < 0 || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}
