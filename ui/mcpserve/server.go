package mcpserve

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/chat"
)

// Options configure a server.
type Options struct {
	// Version is followup's version, sent as serverInfo.version.
	Version string
	// MaxSessions bounds the sessions open at once (DefaultMaxSessions
	// when zero); a session beyond it is refused in words.
	MaxSessions int
}

// DefaultMaxSessions is how many sessions one server keeps open at most.
const DefaultMaxSessions = 100

// server is one `followup mcp serve` process's MCP server: the tools, and
// the sessions of the clients connected to it.
type server struct {
	inbox       Inbox
	mcp         *mcp.Server
	transport   string
	key         string // Client.Key of every session
	maxSessions int
	abandon     time.Duration // see HTTPOptions.AbandonAfter; 0: never

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
	closing  bool
	ending   sync.WaitGroup // sessions being ended
}

// session is one MCP session and the inbox session opened for it.
type session struct {
	ready chan struct{} // closed once in (or err) is set
	in    Session
	err   error
	id    string // the transport's session id ("" over stdio)
	// ended is cancelled when the session ends: in-flight waits return.
	ended  context.Context
	endAll context.CancelFunc
	endOne sync.Once
	ss     *mcp.ServerSession
	calls  int         // in flight; under server.mu
	idle   *time.Timer // runs while no call is in flight (server.abandon)
}

func newServer(inbox Inbox, transport string, o Options) *server {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	s := &server{inbox: inbox, transport: transport, maxSessions: o.MaxSessions, sessions: map[*mcp.ServerSession]*session{}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "followup", Title: "followup", Version: cmp.Or(o.Version, "dev")}, &mcp.ServerOptions{
		Instructions: instructions,
		// A session opens when its client says it is ready; a client on the
		// sessionless protocol (no initialize) opens it with its first call.
		InitializedHandler: func(ctx context.Context, req *mcp.InitializedRequest) {
			s.session(ctx, req.Session, req.Session.InitializeParams().ClientInfo)
		},
	})
	for _, t := range serveTools() {
		s.mcp.AddTool(t.tool, s.handler(t))
	}
	return s
}

// session finds or opens the inbox session of ss. The first caller opens
// it; the others wait for that. A goroutine ends it when ss closes.
func (s *server) session(ctx context.Context, ss *mcp.ServerSession, info *mcp.Implementation) *session {
	s.mu.Lock()
	if se, ok := s.sessions[ss]; ok {
		s.mu.Unlock()
		<-se.ready
		return se
	}
	switch {
	case s.closing:
		// The server is shutting down: nothing new is asked.
		s.mu.Unlock()
		return &session{err: errClosing}
	case len(s.sessions) >= s.maxSessions:
		s.mu.Unlock()
		return &session{err: &chat.Error{Code: chat.CodeLimitExceeded, Message: fmt.Sprintf(
			"followup mcp serve has %d sessions open, the most it takes: try again once one has ended (a client that leaves ends its own)", s.maxSessions)}}
	}
	se := &session{ready: make(chan struct{}), id: ss.ID(), ss: ss}
	se.ended, se.endAll = context.WithCancel(context.Background())
	s.sessions[ss] = se
	if s.abandon > 0 {
		se.idle = time.AfterFunc(s.abandon, func() { s.abandoned(se) })
	}
	s.ending.Add(1)
	s.mu.Unlock()

	c := Client{Transport: s.transport, Key: s.key, Started: time.Now()}
	if info != nil {
		c.Name, c.Version = cmp.Or(info.Title, info.Name), info.Version
	}
	// The session outlives the call that happened to open it.
	se.in, se.err = s.inbox.OpenSession(context.WithoutCancel(ctx), c)
	close(se.ready)
	go func() {
		defer s.ending.Done()
		ss.Wait()
		if se.idle != nil {
			se.idle.Stop()
		}
		s.end(se)
		s.mu.Lock()
		delete(s.sessions, ss)
		s.mu.Unlock()
	}()
	return se
}

// touch counts a call of se starting (+1) or ending (-1): the session's
// idle time runs while it has none in flight.
func (s *server) touch(se *session, d int) {
	if se.idle == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if se.calls += d; se.calls == 0 {
		se.idle.Reset(s.abandon)
	} else {
		se.idle.Stop()
	}
}

// abandoned closes se when its client has made no call for s.abandon and
// none of its questions waits: nobody is left to ask or to answer. One with
// a question waiting lives on, up to the SDK's session timeout, and is
// looked at again after s.abandon: once the user answers or cancels it, the
// session ends as any other left behind.
func (s *server) abandoned(se *session) {
	<-se.ready
	s.mu.Lock()
	busy := se.calls > 0
	s.mu.Unlock()
	if busy || se.in == nil {
		return
	}
	if se.in.Waiting(context.Background()) {
		s.touch(se, 0) // runs the idle time again unless a call began meanwhile
		return
	}
	se.ss.Close()
}

// end ends se once: the inbox expires what it left pending, then its
// in-flight waits return. In that order, a wait returns its request
// expired (disconnected), as the agent's next look would find it, rather
// than the pending state of a moment before.
func (s *server) end(se *session) {
	se.endOne.Do(func() {
		<-se.ready
		if se.in != nil {
			// A failure here leaves the requests pending; the next process
			// to look sees the session's lease free and expires them then.
			se.in.End(context.Background())
		}
		se.endAll()
	})
}

// endSession ends the session with the given transport id at once, before
// the SDK closes it (it waits for in-flight calls to return first).
func (s *server) endSession(id string) {
	s.mu.Lock()
	var found *session
	for _, se := range s.sessions {
		if se.id == id && id != "" {
			found = se
		}
	}
	s.mu.Unlock()
	if found != nil {
		s.end(found)
	}
}

// shutdown ends and closes every session: the server is going away.
func (s *server) shutdown() {
	s.mu.Lock()
	s.closing = true
	all := maps.Clone(s.sessions)
	s.mu.Unlock()
	for ss, se := range all {
		s.end(se) // first: its waits return, so closing does not wait for them
		ss.Close()
	}
}

// handler runs one tool call in the caller's session and returns the
// host's result as the tool result.
func (s *server) handler(t serveTool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		se := s.session(ctx, req.Session, req.ClientInfo())
		if se.err != nil {
			return toolResult(chat.ErrorJSON(se.err)), nil
		}
		s.touch(se, 1)
		defer s.touch(se, -1)
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		defer context.AfterFunc(se.ended, stop)()
		if token := req.Params.GetProgressToken(); token != nil {
			defer keepAlive(ctx, req.Session, token)()
		}
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		return toolResult(t.run(se.in, ctx, args)), nil
	}
}

// progressEvery is how often a call that takes long (input_wait) tells a
// client that gave a progress token it is alive: well under the 10 s a
// client's tool timeout may be, when progress resets it.
const progressEvery = 3 * time.Second

// keepAlive sends progress on the call every progressEvery until the
// returned func is called.
func keepAlive(ctx context.Context, ss *mcp.ServerSession, token any) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		start := time.Now()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n),
				Message: fmt.Sprintf("waiting for the user's answer (%ds)", int(time.Since(start).Seconds()))})
		}
	}()
	return func() { cancel(); <-done }
}

// errClosing refuses a session that starts while the server shuts down.
var errClosing = &chat.Error{Code: chat.CodeTargetClosed, Message: "followup mcp serve is shutting down"}

// toolResult carries a host result to the client: the JSON as text (what
// every client shows the model) and as structured content, an error result
// when it is {"ok":false}.
func toolResult(raw json.RawMessage) *mcp.CallToolResult {
	var head struct {
		OK bool `json:"ok"`
	}
	json.Unmarshal(raw, &head)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(raw)}},
		StructuredContent: raw,
		IsError:           !head.OK,
	}
}
