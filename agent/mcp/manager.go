package mcp

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Manager.
type Options struct {
	// Name and Version are followup's clientInfo.
	Name, Version string
	// Elicitor answers servers' elicitations; without one, followup declares no
	// elicitation capability.
	Elicitor Elicitor
	// Sampler answers servers' sampling requests; without one, followup
	// declares no sampling capability.
	Sampler Sampler
	// LogDir holds the servers' stderr logs (default StateDir).
	LogDir string
	// OnChange, when set, is called from any goroutine after a server's state or tools
	// changed; read Status or Tools then.
	OnChange func()
	// OnProgress, when set, hears a server's progress on a call in flight (called
	// from the SDK's goroutines, as often as the server sends it).
	OnProgress func(o Origin, p Progress)
}

// Manager runs one client per configured server. It is safe for concurrent use.
type Manager struct {
	opts     Options
	logDir   string
	config   string
	problems []string
	servers  []*server // in config order (sorted by name)
	byName   map[string]*server
	// backoff is the wait after a first automatic restart (restart.go).
	backoff time.Duration
	// open counts the questions open per run (admit).
	openMu sync.Mutex
	open   map[string]int
	// roots are declared to every server, and answer roots/list (docs/mcp.md).
	roots []*sdk.Root

	// calls numbers the calls made, for their progress tokens.
	calls atomic.Int64

	startOnce sync.Once
	closeOnce sync.Once
}

// New prepares the configured servers; nothing starts before Start.
func New(cfg Config, opts Options) *Manager {
	opts.Name = cmp.Or(opts.Name, "followup")
	if opts.Version == "" {
		opts.Version = "dev"
	}
	m := &Manager{opts: opts, logDir: opts.LogDir, config: cfg.Path, byName: map[string]*server{}, backoff: restartBackoff,
		open: map[string]int{}}
	if m.logDir == "" {
		m.logDir = StateDir(os.Getenv)
	}
	for _, dir := range cfg.Roots {
		if !slices.ContainsFunc(m.roots, func(r *sdk.Root) bool { return r.URI == fileURI(dir) }) {
			m.roots = append(m.roots, &sdk.Root{URI: fileURI(dir), Name: filepath.Base(dir)})
		}
	}
	for _, p := range cfg.Problems {
		m.problems = append(m.problems, p.Error())
	}
	for _, sc := range cfg.Servers {
		s := newServer(m, sc)
		m.servers = append(m.servers, s)
		m.byName[sc.Name] = s
	}
	return m
}

// Start connects every enabled server in the background and returns at once.
func (m *Manager) Start() {
	m.startOnce.Do(func() {
		for _, s := range m.servers {
			if !s.cfg.Disabled {
				go s.run(s.attempt())
			}
		}
	})
}

// Wait returns once no server is still connecting within its timeout (the CLI, before
// a run needs tools), or when ctx ends. It starts the servers if Start was not called.
func (m *Manager) Wait(ctx context.Context) error {
	m.Start()
	for _, s := range m.servers {
		s.mu.Lock()
		ready, slow := s.ready, s.slow
		s.mu.Unlock()
		select {
		case <-ready:
		case <-slow:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Close ends every session and server process, in parallel, within about a second.
func (m *Manager) Close() error {
	m.closeOnce.Do(func() {
		// Never started: nothing runs, and nothing may start after this.
		m.startOnce.Do(func() {
			for _, s := range m.servers {
				if !s.cfg.Disabled {
					_, ran := s.attempt()
					close(ran)
				}
			}
		})
		var wg sync.WaitGroup
		for _, s := range m.servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.close()
			}()
		}
		wg.Wait()
	})
	return nil
}

// Configured reports whether any server is configured and not disabled:
// only then can there be tools to wait for.
func (m *Manager) Configured() bool {
	return slices.ContainsFunc(m.servers, func(s *server) bool { return !s.cfg.Disabled })
}

// Tools lists the connected servers' tools, by server then name, and
// those of a server whose connection ended by itself: a call of one starts
// it again (restart.go). A name two tools would share is offered for
// neither (clashes), nor a tool that needs MCP tasks (NeedsTasks).
func (m *Manager) Tools() []Tool {
	all, clash := m.tools()
	out := all[:0]
	for _, t := range all {
		if clash[t.Name] == nil && t.NotOffered == "" {
			out = append(out, t)
		}
	}
	return out
}

// tools lists every server's tools, and the tools that share each name
// that more than one has.
func (m *Manager) tools() ([]Tool, map[string][]Tool) {
	var all []Tool
	for _, s := range m.servers {
		s.mu.Lock()
		if !s.closed {
			all = append(all, s.tools...)
		}
		s.mu.Unlock()
	}
	byName := map[string][]Tool{}
	for _, t := range all {
		byName[t.Name] = append(byName[t.Name], t)
	}
	for name, ts := range byName {
		if len(ts) < 2 {
			delete(byName, name)
		}
	}
	return all, byName
}

// clashes says, one line each, which tools are not offered because they
// would share a name.
func (m *Manager) clashes() []string {
	_, clash := m.tools()
	var out []string
	for name, ts := range clash {
		out = append(out, fmt.Sprintf("%s would name both %s's tool %q and %s's tool %q: neither is offered",
			name, ts[0].Server, ts[0].Tool, ts[1].Server, ts[1].Tool))
	}
	sort.Strings(out)
	return out
}

// Lookup finds a connected server's tool by the name the model sees.
func (m *Manager) Lookup(name string) (Tool, bool) {
	for _, t := range m.Tools() {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

func (m *Manager) changed() {
	if m.opts.OnChange != nil {
		m.opts.OnChange()
	}
}

// fileURI is the file: URI of a directory (a root).
func fileURI(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(dir))}).String()
}
