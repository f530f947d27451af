package ui

import (
	"context"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// saver writes the screen's drafts (each form's and the composer's of each
// chat) off the UI goroutine, one write at a time, in the order asked. A
// draft asked to be saved again before its write began is written once,
// with its newest value, so an older autosave can never land after a newer
// one. When the program ends, Run waits for every write asked before
// (wait): a quit, SIGHUP or SIGTERM loses nothing that was typed.
//
// The saver is I/O plumbing, not screen state: the model only calls put
// and the commands only wait for results.
type saver struct {
	mu      sync.Mutex
	order   []string // keys waiting to be written, oldest first
	pending map[string]*saveJob
	running bool          // a goroutine is writing
	idle    chan struct{} // closed when nothing is waiting or being written
	// off: the database cannot be written, so nothing is tried (the
	// screen says once that nothing typed is kept, not at each autosave).
	off bool
}

// saveJob is the newest value of one draft waiting to be written, and
// who waits for its result.
type saveJob struct {
	write   func(context.Context) error
	waiters []chan error
}

// saveTimeout bounds one draft write (the database's busy timeout is
// longer; a draft write that cannot get the lock by then is reported).
const saveTimeout = 5 * time.Second

func newSaver() *saver {
	idle := make(chan struct{})
	close(idle)
	return &saver{pending: map[string]*saveJob{}, idle: idle}
}

// setOff turns the writes off (the database cannot be written) or on.
func (s *saver) setOff(off bool) {
	s.mu.Lock()
	s.off = off
	s.mu.Unlock()
}

// put asks for write to be run as the newest value of the draft key; the
// channel returned gets its result (or that of a newer value of the same
// draft, which replaced it before it was written).
func (s *saver) put(key string, write func(context.Context) error) <-chan error {
	done := make(chan error, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.off {
		done <- nil
		return done
	}
	if j, ok := s.pending[key]; ok {
		j.write = write
		j.waiters = append(j.waiters, done)
	} else {
		s.pending[key] = &saveJob{write: write, waiters: []chan error{done}}
		s.order = append(s.order, key)
	}
	if !s.running {
		s.running = true
		s.idle = make(chan struct{})
		go s.drain()
	}
	return done
}

// drain writes what waits, oldest first, until nothing does.
func (s *saver) drain() {
	for {
		s.mu.Lock()
		if len(s.order) == 0 {
			s.running = false
			close(s.idle)
			s.mu.Unlock()
			return
		}
		key := s.order[0]
		s.order = s.order[1:]
		j := s.pending[key]
		delete(s.pending, key)
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
		err := j.write(ctx)
		cancel()
		for _, w := range j.waiters {
			w <- err
		}
	}
}

// wait blocks until every write asked so far is done, or ctx ends; it
// reports whether all were done.
func (s *saver) wait(ctx context.Context) bool {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	select {
	case <-idle:
		return true
	case <-ctx.Done():
		return false
	}
}

// savedCmd waits for a write's result and reports it as msg makes it.
func savedCmd(done <-chan error, msg func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg { return msg(<-done) }
}
