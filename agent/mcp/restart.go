package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server whose connection ended by itself — killed, crashed, or exited —
// comes back without a restart of followup:
//
//   - The next call that needs it (Call, Retry) starts it again, with the
//     handshake and the tool list read again, and is made on the new
//     connection. A call starts at most one attempt, and automatic attempts
//     back off (restartBackoff, doubling up to restartBackoffMax) until a
//     connection lasts stableAfter; a call meeting the back-off fails at
//     once, saying when the next attempt may be made.
//   - Restart starts any failed server again at once (the screen's r key),
//     whatever its back-off.
//
// A call in flight when the connection ended is not made again: its outcome
// is unknown, and it ends as it did before (ConnectionEndedError). A call an
// HTTP server refused unread because it no longer knows the session (it
// restarted: ErrSessionMissing) is made again on a new session, once. A server
// that never connected (a command that does not exist, a handshake that
// fails) is a configuration to fix: only Restart starts it again. Until the
// server is back its tools stay in Tools, so the model can still call them.

// Back-off of automatic restarts.
const (
	restartBackoff    = 2 * time.Second
	restartBackoffMax = time.Minute
	// stableAfter is how long a connection must last for the back-off to
	// start over.
	stableAfter = 30 * time.Second
)

// restartState is what a server remembers of its restarts (under its mu).
type restartState struct {
	// lost: a connection of the server ended by itself, so a call may
	// start it again.
	lost bool
	// attempts counts the attempts since the last stable connection; next
	// is when the next automatic one may begin.
	attempts    int
	next        time.Time
	connectedAt time.Time
}

// ended records that the connection ended by itself at now.
func (r *restartState) ended(now time.Time) {
	r.lost = true
	if now.Sub(r.connectedAt) >= stableAfter {
		r.attempts, r.next = 0, time.Time{}
	}
}

// begun records an attempt beginning at now, with the back-off base.
func (r *restartState) begun(now time.Time, base time.Duration) {
	r.attempts++
	wait := base
	for i := 1; i < r.attempts && wait < restartBackoffMax; i++ {
		wait *= 2
	}
	r.next = now.Add(min(wait, restartBackoffMax))
}

// beginLocked starts a new connection attempt of a failed server; s.mu is
// held. OnChange is the caller's to call, once s.mu is released.
func (s *server) beginLocked() {
	s.restart.begun(time.Now(), s.m.backoff)
	s.state, s.reason = StateConnecting, ""
	s.ready, s.slow, s.ran = make(chan struct{}), make(chan struct{}), make(chan struct{})
	go s.run(s.ready, s.ran)
}

// Restart starts a failed server again at once, in the background, whatever
// its back-off (the user asked); OnChange tells when it has connected or
// failed again. A server connecting or connected is left as it is.
func (m *Manager) Restart(name string) error {
	s, ok := m.byName[name]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	m.Start()
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return fmt.Errorf("MCP server %s: %w", s.cfg.Name, errClosed)
	case s.state == StateDisabled:
		s.mu.Unlock()
		return fmt.Errorf("MCP server %s is disabled in %s", s.cfg.Name, m.config)
	case s.state != StateFailed:
		s.mu.Unlock()
		return nil
	}
	s.restart.attempts = 0
	s.beginLocked()
	s.mu.Unlock()
	s.note("starting again, as the user asked")
	m.changed()
	return nil
}

// connection returns the session a call is made on, once the server has
// finished connecting. A server whose connection ended by itself is started
// again first: once per call, and not within its back-off. The caller holds
// the call token, so concurrent calls start one attempt between them.
//
// tried says the call waited for an attempt or began one; connection sets it.
func (s *server) connection(ctx context.Context, tried *bool) (*sdk.ClientSession, error) {
	for {
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return nil, fmt.Errorf("MCP server %s: %w", s.cfg.Name, errClosed)
		case s.session != nil:
			cs := s.session
			s.mu.Unlock()
			return cs, nil
		case s.state == StateDisabled:
			s.mu.Unlock()
			return nil, fmt.Errorf("MCP server %s is disabled in %s", s.cfg.Name, s.m.config)
		case s.state == StateConnecting:
			ready := s.ready
			s.mu.Unlock()
			select {
			case <-ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			*tried = true
		case s.restart.lost && !*tried && !time.Now().Before(s.restart.next):
			was := s.reason
			s.beginLocked()
			s.mu.Unlock()
			s.note("starting again for a call (%s)", was)
			s.m.changed()
			*tried = true
		default:
			err := s.notConnectedLocked(*tried)
			s.mu.Unlock()
			return nil, err
		}
	}
}

// notConnectedLocked says why a failed server takes no call (s.mu held):
// its reason, and when a call may start it again.
func (s *server) notConnectedLocked(tried bool) error {
	switch {
	case !s.restart.lost:
		return fmt.Errorf("MCP server %s is not connected: %s", s.cfg.Name, s.reason)
	case tried:
		return fmt.Errorf("MCP server %s could not be started again: %s", s.cfg.Name, s.reason)
	}
	wait := time.Until(s.restart.next).Round(time.Second)
	return fmt.Errorf("MCP server %s is not connected: %s (a call starts it again in %s at the earliest)",
		s.cfg.Name, s.reason, max(wait, time.Second))
}
