package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server states (docs/mcp.md, `followup mcp list`).
const (
	StateConnecting = "connecting"
	StateConnected  = "connected"
	StateFailed     = "failed"
	StateDisabled   = "disabled"
)

// legacyProtocol is what a server that ignores 2026-07-28's server/discover is retried on.
const legacyProtocol = "2025-11-25"

// startLimit is how long a stdio server is given to start and answer (a
// first start may download it) before it is given up.
const startLimit = maxTimeout

// server is one configured server and its client session.
type server struct {
	m       *Manager
	cfg     ServerConfig
	logPath string
	client  *sdk.Client
	// life ends when the manager closes: connecting, tool listing and elicitations stop.
	life    context.Context
	endLife context.CancelFunc

	mu       sync.Mutex
	state    string
	reason   string
	protocol string
	info     *sdk.Implementation
	// tools are the connected server's tools; after its connection ended
	// by itself they are kept for the model, whose next call of one starts
	// the server again (restart.go).
	tools []Tool
	// resources are the connected server's resources (resources.go).
	resources []Resource
	prompts   []Prompt // the connected server's (prompts.go)
	session   *sdk.ClientSession
	proc      *process
	log       *serverLog
	// ready is closed when the current connection attempt ends, either
	// way; each attempt (a restart) has its own. slow is closed when the
	// attempt is still starting after the entry's timeout.
	ready, slow chan struct{}
	// sessionDone is closed when the connected session has ended.
	sessionDone chan struct{}
	// sessionBroke is closed when a call on the session failed with a
	// transport error (its connection broke): the session is seen ended
	// only once the handlers of the server's requests return (callEnded).
	sessionBroke chan struct{}
	brokeOnce    *sync.Once
	ran          chan struct{} // closed when the current attempt's run returns
	closed       bool
	restart      restartState

	// orders keeps the property order of the schemas the server sent (order.go).
	orders schemaOrders

	// calls holds one token: one call at a time per server, so that an elicitation —
	// whose handler context the SDK does not relate to any call — belongs to the call
	// in flight.
	calls    chan struct{}
	flightMu sync.Mutex
	open     int // questions open, under flightMu (admit)
	flight   struct {
		tool   string
		origin Origin
		token  string        // the call's progress token
		done   chan struct{} // closed when the call ends
	}
}

func newServer(m *Manager, cfg ServerConfig) *server {
	s := &server{m: m, cfg: cfg, logPath: logPath(m.logDir, cfg.Name), ready: make(chan struct{}), slow: make(chan struct{}),
		ran: make(chan struct{}), calls: make(chan struct{}, 1), state: StateConnecting}
	s.life, s.endLife = context.WithCancel(context.Background())
	if cfg.Disabled {
		s.state = StateDisabled
		close(s.ready)
		close(s.ran)
	}
	return s
}

// newClient builds the server's SDK client: elicitation declared by followup itself (the
// handler alone advertises form only), sampling with a Sampler, roots when there are any, multi-round-trip
// results returned to the caller instead of being retried in memory.
func (s *server) newClient(log *serverLog) *sdk.Client {
	caps := &sdk.ClientCapabilities{}
	opts := &sdk.ClientOptions{
		Logger:         sdkLogger(log),
		Capabilities:   caps,
		MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			if req.Params != nil {
				log.Message(req.Params)
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.progress(req.Params)
		},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			go refresh(s, "tools", s.listTools, func(t []Tool) { s.tools = t })
		},
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) {
			go refresh(s, "resources", s.listResources, func(r []Resource) { s.resources = r })
		},
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) {
			go refresh(s, "prompts", s.listPrompts, func(p []Prompt) { s.prompts = p })
		},
	}
	if s.m.opts.Elicitor != nil {
		caps.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
		opts.ElicitationHandler = s.elicitHandler
	}
	if s.m.opts.Sampler != nil {
		opts.CreateMessageHandler = s.sampleHandler
	}
	if len(s.m.roots) > 0 {
		caps.RootsV2 = &sdk.RootCapabilities{}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: s.m.opts.Name, Version: s.m.opts.Version}, opts)
	c.AddRoots(s.m.roots...)
	c.AddReceivingMiddleware(s.answerElicitations)
	return c
}

// attempt is the current connection attempt's channels, for run.
func (s *server) attempt() (ready, ran chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ready, s.ran
}

// run makes one connection attempt — connects the server, bounded by its
// timeout, then lists its tools — closing ready when it has connected or
// failed and ran when it returns. Attempts never overlap: a new one begins
// only once the server has failed (restart.go).
func (s *server) run(ready, ran chan struct{}) {
	defer close(ran)
	s.mu.Lock()
	log := s.log
	s.mu.Unlock()
	if log == nil {
		var err error
		if log, err = openLog(s.logPath, s.cfg.Secrets); err != nil {
			s.fail(ready, "cannot open its log: "+err.Error())
			return
		}
		client := s.newClient(log)
		s.mu.Lock()
		s.log, s.client = log, client
		s.mu.Unlock()
	}
	log.Note("starting %s", s.cfg)
	limit, half := s.cfg.Timeout, s.cfg.Timeout/2
	if s.cfg.Type == TypeStdio {
		// The timeout bounds the answer of a server that is running, not its
		// first start, which may install it (npx): past it the server is
		// said to be still starting, and is given up only after startLimit.
		// Its connection answers an ignored discover (handshake.go).
		limit, half = max(limit, startLimit), 0
		slow := time.AfterFunc(s.cfg.Timeout, func() { s.stillStarting(ready) })
		defer slow.Stop()
	}
	ctx, cancel := context.WithTimeout(s.life, limit)
	defer cancel()
	start := time.Now()
	// Half the budget for the newest handshake: a server that ignores server/discover
	// never answers it, and the other half is for the 2025-11-25 handshake.
	cs, proc, err := s.connect(ctx, half, "")
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		log.Note("no answer to the 2026-07-28 handshake in %s; retrying on %s", time.Since(start).Round(time.Millisecond), legacyProtocol)
		cs, proc, err = s.connect(ctx, 0, legacyProtocol)
	}
	if err != nil {
		if s.life.Err() != nil {
			return
		}
		switch {
		case ctx.Err() != nil && limit > s.cfg.Timeout:
			err = fmt.Errorf("no answer within %s (the longest a server is given to start)", limit)
		case ctx.Err() != nil:
			err = fmt.Errorf("no answer within %s (the entry's timeout)", s.cfg.Timeout)
		case s.cfg.Type == TypeStdio && errors.Is(err, sdk.ErrConnectionClosed):
			// The SDK's words for it name its own internals ("client is
			// closing: write |1: broken pipe").
			err = errors.New("the server exited during the handshake (its log may say why)")
		}
		s.fail(ready, "cannot connect: "+err.Error())
		return
	}
	tools, err := s.listTools(ctx, cs)
	if err != nil {
		closeSession(cs, proc)
		if s.life.Err() == nil {
			s.fail(ready, "cannot list its tools: "+err.Error())
		}
		return
	}
	resources, err := s.listResources(ctx, cs)
	if err != nil {
		log.Note("cannot list its resources: %v", err)
	}
	prompts, err := s.listPrompts(ctx, cs)
	if err != nil {
		log.Note("cannot list its prompts: %v", err)
	}
	res := cs.InitializeResult()
	if res != nil && res.Capabilities != nil && res.Capabilities.Logging != nil {
		level := cmp.Or(s.cfg.LogLevel, "info")
		if err := cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: sdk.LoggingLevel(level)}); err != nil {
			log.Note("cannot set its log level to %s: %v", level, err)
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		closeSession(cs, proc)
		return
	}
	s.session, s.proc, s.tools, s.resources, s.prompts, s.state, s.reason = cs, proc, tools, resources, prompts, StateConnected, ""
	s.sessionDone = make(chan struct{})
	s.sessionBroke, s.brokeOnce = make(chan struct{}), &sync.Once{}
	s.restart.connectedAt = time.Now()
	if res != nil {
		s.protocol, s.info = res.ProtocolVersion, res.ServerInfo
	}
	close(ready)
	s.mu.Unlock()
	log.Note("connected in %s on protocol %s with %d tools", time.Since(start).Round(time.Millisecond), s.protocol, len(tools))
	s.m.changed()
	go s.watch(cs, proc, s.sessionDone)
}

// connect makes one attempt, bounded by limit when it is set. A failed attempt leaves no
// process behind.
func (s *server) connect(ctx context.Context, limit time.Duration, version string) (*sdk.ClientSession, *process, error) {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	var transport sdk.Transport
	var proc *process
	switch s.cfg.Type {
	case TypeStdio:
		proc = &process{}
		start := time.Now()
		transport = wireTransport{next: newStdioTransport(s.cfg, s.log, proc), orders: &s.orders,
			discover: &discoverWait{after: s.cfg.Timeout / 2, note: func() {
				s.note("no answer to the 2026-07-28 handshake in %s; retrying on %s in the same connection",
					time.Since(start).Round(time.Millisecond), legacyProtocol)
			}}}
	default:
		transport = newHTTPTransport(s.cfg, &s.orders)
	}
	var opts *sdk.ClientSessionOptions
	if version != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := s.client.Connect(ctx, transport, opts)
	if err != nil {
		if cs != nil {
			closeSession(cs, proc)
		} else if proc != nil {
			proc.signal(syscall.SIGKILL)
		}
		return nil, nil, err
	}
	return cs, proc, nil
}

// sdkLogger sends the SDK's warnings about this server to its log.
func sdkLogger(l *serverLog) *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
