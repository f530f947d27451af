package mcpserve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the streamable HTTP endpoint is served (and at "/").
const Path = "/mcp"

// DefaultSessionTimeout ends an HTTP session that has made no request for
// this long: its client is taken to be gone. An agent waiting for an
// answer calls input_wait at least every 50 s, so only a client that has
// stopped asking reaches it.
const DefaultSessionTimeout = 30 * time.Minute

// DefaultAbandonAfter ends an HTTP session with no question waiting whose
// client has made no call for this long: a client that left without
// ending its session (many never do) holds nothing for long.
const DefaultAbandonAfter = 3 * time.Minute

// CheckAddr checks an --http address: HOST:PORT where HOST is loopback
// (127.0.0.1, another 127.x address, ::1, or localhost). Anything a
// remote machine could reach — 0.0.0.0, ::, an empty host, a hostname —
// is refused: the server hands out the user's answers to whoever asks. It
// returns the address to listen on (localhost becomes 127.0.0.1).
func CheckAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http wants HOST:PORT on loopback, e.g. 127.0.0.1:7390 (got %q)", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("--http %s: the port must be a number from 0 to 65535", addr)
	}
	if host == "localhost" {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("--http %s: followup serves MCP on loopback only (127.0.0.1, ::1 or localhost), so no other machine can ask the user or read the answers", addr)
	}
	return addr, nil
}

// Listen checks addr (CheckAddr) and listens on it.
func Listen(addr string) (net.Listener, error) {
	addr, err := CheckAddr(addr)
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}

// URL is the endpoint a client connects to on ln.
func URL(ln net.Listener) string { return "http://" + ln.Addr().String() + Path }

// headersPass reports whether the SDK's handler h accepts r's headers (its
// Host, its protocol version): it checks them before anything else, and
// answers a method it does not serve 405 only once they have passed.
func headersPass(h http.Handler, r *http.Request) bool {
	probe := r.Clone(r.Context())
	probe.Method, probe.Body = "PROBE", nil
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, probe)
	return rec.Code == http.StatusMethodNotAllowed
}

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	Options
	// SessionTimeout is DefaultSessionTimeout when zero.
	SessionTimeout time.Duration
	// AbandonAfter ends, much sooner, a session that has made no call for
	// this long and has no question waiting (DefaultAbandonAfter when
	// zero).
	AbandonAfter time.Duration
	// Token is the bearer token every request must carry (LoadToken).
	Token string
}

// ServeHTTP serves streamable HTTP on ln until ctx ends, to clients that
// send o.Token; each MCP session is one client. A session ends when its
// client deletes it, when it times out (SessionTimeout), or when the
// server stops.
func ServeHTTP(ctx context.Context, inbox Inbox, o HTTPOptions, ln net.Listener) error {
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	if o.Token == "" {
		return errors.New("serving MCP over HTTP needs a bearer token")
	}
	if o.AbandonAfter <= 0 {
		o.AbandonAfter = DefaultAbandonAfter
	}
	s := newServer(inbox, "http", o.Options)
	s.abandon = o.AbandonAfter
	sum := sha256.Sum256([]byte(o.Token))
	s.key = hex.EncodeToString(sum[:8])
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		SessionTimeout: o.SessionTimeout,
	})
	// A client ending its session ends it here at once: the SDK would
	// first wait for the session's calls, and an input_wait may take 50 s.
	// Its waits then return their requests expired, and the SDK closes the
	// session once those results have gone out. A DELETE the SDK refuses
	// ends nothing.
	inflight := newPosts()
	ends := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && headersPass(h, r) {
			id := r.Header.Get("Mcp-Session-Id")
			s.endSession(id)
			inflight.drain(id, drainWithin)
		}
		h.ServeHTTP(w, r)
	})
	// A web page the user visits must not reach the server through their
	// browser (the SDK already refuses a foreign Host header), and another
	// local user, who can reach the port, lacks the token.
	handler := http.NewCrossOriginProtection().Handler(requireToken(o.Token)(inflight.track(ends)))
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	s.shutdown()
	shut, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		srv.Close()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
