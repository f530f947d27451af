package mcp

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Timings of closing a stdio server: stdin is closed first (a well-behaved server exits on
// EOF); the process group gets SIGTERM after termAfter and SIGKILL after killAfter.
const (
	termAfter = 300 * time.Millisecond
	killAfter = time.Second
)

// passedEnv is what a stdio server inherits from followup's environment; the rest of its
// environment comes from the entry's env. Keeping followup's own secrets (provider API
// keys) away from third-party servers is why the rest is not passed — a server that needs
// a variable names it in env, e.g. "GITHUB_TOKEN": "${GITHUB_TOKEN}".
var passedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TZ", "TMPDIR"}

func serverEnv(extra map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LC_") || strings.HasPrefix(name, "XDG_") || slices.Contains(passedEnv, name) {
			env = append(env, kv)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// process is a stdio server's process group, known once the transport started it.
type process struct {
	mu    sync.Mutex
	pid   int
	guard *os.File // ends the group if followup dies (guard.go)
}

func (p *process) signal(sig syscall.Signal) {
	p.mu.Lock()
	pid, guard := p.pid, p.guard
	if sig == syscall.SIGKILL {
		p.guard = nil
	}
	p.mu.Unlock()
	if pid > 0 {
		_ = syscall.Kill(-pid, sig)
	}
	if guard != nil && sig == syscall.SIGKILL {
		guard.Close()
	}
}

// stdioTransport starts a server in its own process group, its stderr to the log, and
// records the group so that closing can end the whole tree (npx and its children too).
type stdioTransport struct {
	cmd  *exec.Cmd
	proc *process
	sdk  *sdk.CommandTransport
}

func newStdioTransport(sc ServerConfig, log *serverLog, proc *process) *stdioTransport {
	cmd := exec.Command(sc.Command, sc.Args...)
	cmd.Env = serverEnv(sc.Env)
	cmd.Stderr = log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// stderr is copied by a goroutine: a grandchild that keeps the pipe open must not
	// hold Wait (and so Close) forever.
	cmd.WaitDelay = killAfter
	return &stdioTransport{cmd: cmd, proc: proc, sdk: &sdk.CommandTransport{
		Command: cmd,
		// The SDK signals only the leader; closeSession signals the group at the same
		// moment, and kills it after killAfter.
		TerminateDuration: termAfter,
	}}
}

func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.sdk.Connect(ctx)
	if t.cmd.Process != nil {
		guard := startGuard(t.cmd.Process.Pid)
		t.proc.mu.Lock()
		t.proc.pid, t.proc.guard = t.cmd.Process.Pid, guard
		t.proc.mu.Unlock()
	}
	return conn, err
}

// closeSession closes a session within killAfter, whatever the server does: stdin is
// closed, then the group gets SIGTERM, then SIGKILL; leftovers of the group are killed.
func closeSession(cs *sdk.ClientSession, proc *process) {
	done := make(chan struct{})
	go func() {
		if cs != nil {
			_ = cs.Close()
		}
		close(done)
	}()
	term := time.NewTimer(termAfter)
	kill := time.NewTimer(killAfter)
	defer term.Stop()
	defer kill.Stop()
	var giveUp <-chan time.Time
	for {
		select {
		case <-done:
			if proc != nil {
				proc.signal(syscall.SIGKILL) // what the leader left behind
			}
			return
		case <-term.C:
			if proc != nil {
				proc.signal(syscall.SIGTERM)
			}
		case <-kill.C:
			if proc != nil {
				proc.signal(syscall.SIGKILL)
			}
			// A dead process ends the session at once; an HTTP server that does not
			// answer DELETE, or a handler that does not return, is given up soon after.
			giveUp = time.After(killAfter / 4)
		case <-giveUp:
			return
		}
	}
}

// headerTransport adds the entry's headers to every request (StreamableClientTransport
// has no headers option).
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.next.RoundTrip(r)
}

func newHTTPTransport(sc ServerConfig, orders *schemaOrders) *sdk.StreamableClientTransport {
	var rt http.RoundTripper = wireRoundTripper{next: http.DefaultTransport.(*http.Transport).Clone(), orders: orders, shift: newIDShift()}
	if len(sc.Headers) > 0 {
		rt = headerTransport{headers: sc.Headers, next: rt}
	}
	return &sdk.StreamableClientTransport{Endpoint: sc.URL, HTTPClient: &http.Client{Transport: rt}}
}

// errClosed is a connection given up because the manager closed.
var errClosed = errors.New("closed")
