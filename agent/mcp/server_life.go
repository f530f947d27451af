package mcp

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// watch notices a server that goes away by itself.
func (s *server) watch(cs *sdk.ClientSession, proc *process, done chan struct{}) {
	err := cs.Wait()
	reason := "the server closed the connection"
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		reason += ": " + err.Error()
	}
	s.mu.Lock()
	if s.closed || s.session != cs {
		s.mu.Unlock()
		close(done)
		return
	}
	// The reason is set before done closes: a call that fails with the
	// session reads it (callEnded). The tools stay for the model: the
	// next call of one starts the server again (restart.go).
	s.session, s.state = nil, StateFailed
	s.reason = s.cfg.Secrets.Hide(reason)
	s.restart.ended(time.Now())
	s.mu.Unlock()
	close(done)
	if proc != nil {
		proc.signal(syscall.SIGKILL)
	}
	s.note("%s", reason)
	s.m.changed()
}

// fail ends the connection attempt whose ready channel is ready: the
// server is failed, with the reason.
func (s *server) fail(ready chan struct{}, reason string) {
	reason = s.cfg.Secrets.Hide(reason)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.state, s.reason = StateFailed, reason
	close(ready)
	s.mu.Unlock()
	s.note("%s", reason)
	s.m.changed()
}

// stillStarting says that the stdio server of the attempt whose ready
// channel is ready has not answered within its timeout: it is left to
// start (a first start may be installing it).
func (s *server) stillStarting(ready chan struct{}) {
	s.mu.Lock()
	if s.closed || s.ready != ready || s.state != StateConnecting {
		s.mu.Unlock()
		return
	}
	reason := fmt.Sprintf("no answer after %s (a first start may be installing it); followup waits up to %s",
		s.cfg.Timeout, startLimit)
	s.reason = reason
	close(s.slow)
	s.mu.Unlock()
	s.note("still starting: %s", reason)
	s.m.changed()
}

func (s *server) note(format string, args ...any) {
	s.mu.Lock()
	log := s.log
	s.mu.Unlock()
	if log != nil {
		log.Note(format, args...)
	}
}

// refresh reads one of the server's lists (tools, resources, prompts)
// again after the server said it changed, and keeps it if the session is
// still the one it was read on.
func refresh[T any](s *server, what string, list func(context.Context, *sdk.ClientSession) ([]T, error), keep func([]T)) {
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.life, s.cfg.Timeout)
	defer cancel()
	got, err := list(ctx, cs)
	if err != nil {
		s.note("cannot list %s after a change: %v", what, err)
		return
	}
	s.mu.Lock()
	if s.session == cs {
		keep(got)
	}
	s.mu.Unlock()
	s.m.changed()
}

// close ends the session and the server's process group, within about a second.
func (s *server) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	cs, proc, log, ran := s.session, s.proc, s.log, s.ran
	s.session = nil
	if s.state == StateConnecting {
		close(s.ready)
	}
	s.mu.Unlock()
	s.endLife()
	if cs != nil {
		closeSession(cs, proc)
	}
	// A handshake in progress ends with the life context; wait for its process to be
	// killed, so nothing outlives followup.
	select {
	case <-ran:
	case <-time.After(killAfter):
	}
	if log != nil {
		log.Note("closed")
		_ = log.Close()
	}
}
