package chat

import (
	"context"
	"sync"

	"followup/agent"
	"followup/agent/mcp"
	"followup/store"
)

// followup as an MCP host (docs/mcp.md). The servers a user configured run
// in agent/mcp, one client each; the rules of using them live here: a call
// of a server's tool is a durable step (toolsteps.go), made only once the
// user approved it (approvals.go), and every question a server asks is an
// input request owned by that server (elicit.go, mcprequests.go).

// MCPOptions configure the MCP servers of a Service.
type MCPOptions struct {
	// Config is the loaded configuration (mcp.LoadFor); nil means no
	// servers.
	Config *mcp.Config
	// Version is followup's version, sent as its clientInfo.
	Version string
	// LogDir holds the servers' stderr logs (default: mcp.StateDir).
	LogDir string
}

// mcpHost is a Service's MCP side: the servers' manager and what this
// process knows of the runs it drives.
type mcpHost struct {
	s      *Service
	m      *mcp.Manager // nil when no server is configured
	config string       // the configuration's path, read or not

	mu     sync.Mutex
	drives map[string]driveInfo // runs this process drives, by id
	gaveUp map[stepKey]string   // calls whose question was given up (--no-wait), and why
}

// driveInfo is one drive of a run in this process.
type driveInfo struct {
	ctx    context.Context // ends with the drive
	noWait bool
}

// stepKey names one tool call.
type stepKey struct{ runID, toolCallID string }

func newMCPHost(s *Service, o MCPOptions) *mcpHost {
	h := &mcpHost{s: s, drives: map[string]driveInfo{}, gaveUp: map[stepKey]string{}}
	if o.Config != nil {
		h.config = o.Config.Path
	}
	if o.Config == nil || (len(o.Config.Servers) == 0 && len(o.Config.Problems) == 0) {
		return h
	}
	h.m = mcp.New(*o.Config, mcp.Options{
		Name: "followup", Version: o.Version, Elicitor: h, Sampler: h, LogDir: o.LogDir,
		OnChange: func() { s.broker.Publish(Event{Kind: EvMCP}) },
		OnProgress: func(o mcp.Origin, p mcp.Progress) {
			s.broker.Publish(Event{Kind: EvProgress, ChatID: o.ChatID, RunID: o.RunID, ToolCallID: o.ToolCallID, Progress: p.String()})
		},
	})
	return h
}

// close ends every server within about a second.
func (h *mcpHost) close() {
	if h.m != nil {
		h.m.Close()
	}
}

// StartMCP starts the configured servers in the background; the chat
// screen calls it after its first frame. Without it, the servers start
// when a run first needs a tool.
func (s *Service) StartMCP() {
	if s.mcp.m != nil {
		s.mcp.m.Start()
	}
}

// WaitMCP returns once no server is still connecting, starting them if
// needed (`followup mcp list`).
func (s *Service) WaitMCP(ctx context.Context) error {
	if s.mcp.m == nil {
		return nil
	}
	return s.mcp.m.Wait(ctx)
}

// RestartMCP starts a failed MCP server again at once, whatever its
// back-off (the servers dialog's r key); EvMCP tells when it has connected
// or failed again. A server connecting or connected is left as it is.
func (s *Service) RestartMCP(name string) error {
	if s.mcp.m == nil {
		return errorf(CodeInvalidArgument, "no MCP server %q is configured", name)
	}
	if err := s.mcp.m.Restart(name); err != nil {
		return &Error{Code: CodeInvalidArgument, Message: err.Error()}
	}
	return nil
}

// MCPStatus is the configuration and every server's state, for `followup
// mcp list` and the screen; EvMCP says when it changed. Without servers it
// is empty.
func (s *Service) MCPStatus() mcp.Status {
	if s.mcp.m == nil {
		return mcp.Status{Config: s.mcp.config, Problems: []string{}, Servers: []mcp.ServerStatus{}}
	}
	return s.mcp.m.Status()
}

// noWaitKey marks a context whose drives give a server's live question up
// at once (WithoutWaiting).
type noWaitKey struct{}

// WithoutWaiting returns a context whose drives do not wait for the user's
// answer to a question an MCP server asks during a tool call
// (elicitation/create, which lives only as long as its connection): the
// question expires disconnected, the server gets cancel and the model is
// told the call was interrupted (the CLI's --no-wait). A durable question
// (input_required) is unaffected: it waits in the database for any process.
func WithoutWaiting(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitKey{}, true)
}

// attach gives a runner the MCP servers and this host's half of their
// calls, and records the drive until the returned func is called.
func (h *mcpHost) attach(ctx context.Context, r *agent.Runner, run store.Run) func() {
	runID := run.ID
	// The host plans every call of a tool the run does not offer itself,
	// with servers or without: a call recorded by a process that had the
	// server (a denied approval, a step) is known here too.
	r.Steps = h
	if h.m != nil {
		r.MCP = h.m
	}
	noWait, _ := ctx.Value(noWaitKey{}).(bool)
	h.s.expireStaleElicitations(ctx, run)
	h.s.expireStaleSampling(ctx, runID)
	h.mu.Lock()
	h.drives[runID] = driveInfo{ctx: ctx, noWait: noWait}
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		delete(h.drives, runID)
		for k := range h.gaveUp {
			if k.runID == runID {
				delete(h.gaveUp, k)
			}
		}
		h.mu.Unlock()
	}
}

// drive is this process's drive of a run, if any.
func (h *mcpHost) drive(runID string) (driveInfo, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.drives[runID]
	return d, ok
}

func (h *mcpHost) giveUp(k stepKey, why string) {
	h.mu.Lock()
	h.gaveUp[k] = why
	h.mu.Unlock()
}

func (h *mcpHost) givenUp(k stepKey) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	why, ok := h.gaveUp[k]
	return why, ok
}
