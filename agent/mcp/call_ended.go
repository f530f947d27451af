package mcp

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// goneWithin bounds how long after a call's transport error the session
// must have ended for the server to be said gone: the SDK notices the end
// of a killed process's connection after its call has failed.
const goneWithin = 3 * time.Second

// ConnectionEndedError is a call's error when the server's connection
// ended during it: it says so in words ("everything stopped (killed by a
// signal) during the call"), not the SDK's `calling "tools/call": EOF`.
// It matches ErrConnectionEnded (errors.Is).
type ConnectionEndedError struct {
	Server string
	Why    string // "killed by a signal", "it exited with status 1", …
}

func (e *ConnectionEndedError) Error() string {
	return fmt.Sprintf("%s stopped (%s) during the call", e.Server, e.Why)
}

func (e *ConnectionEndedError) Is(target error) bool { return target == ErrConnectionEnded }

// callEnded is what a failed call tells: when the session ended with it
// (done closes within goneWithin), the server is gone and is said so;
// otherwise the call's own error. An error the server answered is its own.
func (s *server) callEnded(done <-chan struct{}, err error) error {
	var rpcErr *jsonrpc.Error
	if done == nil || errors.As(err, &rpcErr) {
		return err
	}
	s.markBroken(done)
	select {
	case <-done:
	case <-time.After(goneWithin):
		return err
	}
	s.mu.Lock()
	reason := s.reason
	s.mu.Unlock()
	return &ConnectionEndedError{Server: s.cfg.Name, Why: endedWhy(reason)}
}

// endedWhy words how a connection ended, from the reason watch recorded.
func endedWhy(reason string) string {
	_, detail, _ := strings.Cut(reason, ": ")
	switch {
	case strings.Contains(detail, "signal: killed"):
		return "killed by a signal"
	case strings.HasPrefix(detail, "signal: "):
		return "stopped by a signal: " + strings.TrimPrefix(detail, "signal: ")
	case strings.HasPrefix(detail, "exit status "):
		return "it exited with status " + strings.TrimPrefix(detail, "exit status ")
	}
	return "its connection ended"
}

// markBroken says the session whose end done announces broke: a question
// of its server open now is disconnected, not withdrawn.
func (s *server) markBroken(done <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if done == s.sessionDone && s.brokeOnce != nil {
		s.brokeOnce.Do(func() { close(s.sessionBroke) })
	}
}
