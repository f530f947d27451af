package chat

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"

	"followup/agent"
	"followup/agent/skills"
	"followup/forms"
	"followup/store"
)

// Policy bounds what a run may do (docs/input-requests.md, Limits).
type Policy struct {
	QuestionsPerRun int // 1–32, default 8
	ReplySize       int // bytes of UTF-8 JSON, default 65,536, at most 1 MiB
	ModelCalls      int // model calls per run, default 32
}

// DefaultPolicy is the policy when none is given.
func DefaultPolicy() Policy {
	return Policy{QuestionsPerRun: forms.DefaultQuestionsPerRun, ReplySize: forms.DefaultReplySize, ModelCalls: 32}
}

// withDefaults fills each unset bound on its own.
func (p Policy) withDefaults() Policy {
	d := DefaultPolicy()
	if p.QuestionsPerRun <= 0 {
		p.QuestionsPerRun = d.QuestionsPerRun
	}
	if p.ReplySize <= 0 {
		p.ReplySize = d.ReplySize
	}
	if p.ModelCalls <= 0 {
		p.ModelCalls = d.ModelCalls
	}
	return p
}

// Options configure a Service.
type Options struct {
	DBPath   string
	Provider agent.Provider
	Model    string
	Policy   Policy
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ShortLived is for a process that opens the database for one command
	// (the headless CLI): its readers map the file, which reads cold pages
	// faster but keeps every page read resident (store.MapFile). A chat
	// screen or a server leaves it false.
	ShortLived bool
	// Checkpoint, when set, is called with the name of each durable step
	// (the Crash* constants) right after it is committed: the durability
	// tests kill the process there (CrashAt).
	Checkpoint func(step string)
	// ServeQuietAfter is how long a serve session with a question waiting
	// may go without a call from its client before the question shows as
	// "its client may be gone" (DefaultServeQuietAfter when zero).
	ServeQuietAfter time.Duration
	// MCP names the MCP servers whose tools the agent may use (docs/mcp.md).
	MCP MCPOptions
	// Skills are the skills the agent may use (docs/skills.md); their forms
	// become the templates SKILL:NAME. Nil means the built-in ones, and
	// leaves the templates as they are.
	Skills *skills.Set
	// SyncTemplatesLater leaves SyncTemplates to the caller: the chat
	// screen reads its first chat before that write (docs/performance.md).
	SyncTemplatesLater bool
}

// defaultProvider is the offline demo agent (docs/behaviour.md).
var defaultProvider agent.Provider = agent.Offline{}

// ProviderName names the provider the host will use.
func (o Options) ProviderName() string {
	if o.Provider == nil {
		return defaultProvider.Name()
	}
	return o.Provider.Name()
}

// Service is the host of every chat in one database.
type Service struct {
	db       *store.Store  // the database: transactions, the reader pool, run leases
	store    store.Queries // the typed queries, run on a transaction or the reader pool
	provider agent.Provider
	model    string
	policy   Policy
	now      func() time.Time
	tools    *agent.Registry
	system   string // the agent's system prompt, with its skills
	skills   *skills.Set
	// syncSkills: the skills were given to Open, their forms are templates.
	syncSkills bool
	broker     *Broker
	onStep     func(step string) // Options.Checkpoint
	mcp        *mcpHost          // the MCP servers and their calls (mcphost.go)

	mu      sync.Mutex
	driving map[string]context.CancelFunc // runs this process is driving

	watchMu     sync.Mutex // guards the watch of other processes (watch.go)
	subscribers int
	stopWatch   context.CancelFunc
	watchDone   chan struct{}
	watchLooks  atomic.Int64  // looks the watch made (tests see it sleep)
	awaited     awaited       // requests waited for (awaited.go)
	quietAfter  time.Duration // Options.ServeQuietAfter
	closing     chan struct{} // closed by Close
	closed      bool
}

// Open opens the database and returns the host.
func Open(ctx context.Context, o Options) (*Service, error) {
	var opts []store.Option
	if o.ShortLived {
		opts = append(opts, store.MapFile())
	}
	db, err := store.Open(ctx, o.DBPath, opts...)
	if err != nil {
		return nil, err
	}
	if o.Provider == nil {
		o.Provider = defaultProvider
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Checkpoint == nil {
		o.Checkpoint = defaultCheckpoint
	}
	o.Policy = o.Policy.withDefaults()
	s := &Service{
		db: db, store: store.Queries{}, provider: o.Provider, model: o.Model, policy: o.Policy, now: o.Now, onStep: o.Checkpoint,
		broker: NewBroker(), driving: map[string]context.CancelFunc{}, closing: make(chan struct{}),
		quietAfter: cmp.Or(o.ServeQuietAfter, DefaultServeQuietAfter),
	}
	s.mcp = newMCPHost(s, o.MCP)
	s.tools = agent.NewRegistry()
	err = agent.RegisterInputTools(s.tools, inputTools{s})
	if err == nil {
		err = s.useSkills(o.Skills)
	}
	if err == nil && !o.SyncTemplatesLater {
		err = s.SyncTemplates(ctx)
	}
	// The pending list, and what a process that died left unsent
	// (elicit.go) or unread (reattach.go).
	for _, fix := range []func(context.Context) error{s.fillPendingItems, s.failUnsentReplies, s.failLapsedUnread} {
		if err == nil {
			err = fix(ctx)
		}
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close stops every drive this process holds and the watch of other
// processes, and closes the database.
func (s *Service) Close() error {
	s.stopWatching()
	s.broker.Close()
	s.mu.Lock()
	for _, cancel := range s.driving {
		cancel()
	}
	s.mu.Unlock()
	s.mcp.close()
	return s.db.Close()
}

// Path is the database file.
func (s *Service) Path() string { return s.db.Path() }

// ReadOnly says why this process cannot write the database, "" when it
// can: reads work, every write is refused with DATABASE_READ_ONLY — or,
// once the file was found removed or replaced at its path (the watch of
// other processes' commits looks), with DATABASE_UNAVAILABLE.
func (s *Service) ReadOnly() string { return s.db.ReadOnly() }

// FileGone says why the database's path no longer names the file this
// process opened ("" while it does): reads of it may then fail for that
// reason alone.
func (s *Service) FileGone() string { return s.db.CheckFile() }

// ProviderName names the model provider.
func (s *Service) ProviderName() string { return s.provider.Name() }

// reader is the reader pool, for reads outside a transaction.
func (s *Service) reader() store.Handle { return s.db.Reader() }

func (s *Service) nowMS() int64 { return s.now().UnixMilli() }

// NewID returns a fresh random id with a readable prefix.
func NewID(prefix string) string {
	var b [8]byte
	rand.Read(b[:])
	return prefix + "_" + hex.EncodeToString(b[:])
}
