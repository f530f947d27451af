package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrLeaseHeld means another driver holds the run.
var ErrLeaseHeld = errors.New("run is driven by another process")

// Lease is the right to drive one run. It is an open-file-description lock
// on one byte (the run's seq) of a lock file beside the database, so the
// kernel frees it the instant its holder dies: no timeout, no stale owner.
// The lock file is named after the database's resolved path, so processes
// reaching it through different symlinks share one lock.
type Lease struct {
	f   *os.File
	seq int64     // the byte locked: the run's seq, or a session's (sessions.go)
	k   *lockFile // the open lock file it is held on
}

// lockFile is an open lock file and the bytes this process holds on it,
// closed with the last one. A run's lease has one of its own; a process's
// serve sessions share one (sessions.go).
type lockFile struct {
	mu   sync.Mutex
	f    *os.File
	held map[int64]bool // by byte
}

// AcquireLease takes the run's lease without waiting, or returns ErrLeaseHeld.
// A database this process cannot write has no lease to take: driving a run
// writes.
func (s *Store) AcquireLease(runSeq int64) (*Lease, error) {
	return (&lockFile{}).acquire(s, runSeq)
}

// acquire locks byte b of the lock file without waiting, opening the file
// when this holder has it closed.
func (k *lockFile) acquire(s *Store, b int64) (*Lease, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.held[b] {
		return nil, ErrLeaseHeld
	}
	if k.f == nil {
		f, err := s.openLeaseFile(os.O_RDWR | os.O_CREATE)
		if err != nil {
			return nil, err
		}
		k.f, k.held = f, map[int64]bool{}
	}
	if err := lockByte(k.f, b); err != nil {
		k.closeIfIdle()
		return nil, err
	}
	k.held[b] = true
	return &Lease{f: k.f, seq: b, k: k}, nil
}

// holds reports whether this holder holds byte b.
func (k *lockFile) holds(b int64) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.held[b]
}

// lockByte locks byte b of the lock file f without waiting, or returns
// ErrLeaseHeld.
func lockByte(f *os.File, b int64) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: b, Len: 1}
	err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return ErrLeaseHeld
	}
	return err
}

// LeaseHeld reports whether some live process holds the run's lease.
func (s *Store) LeaseHeld(runSeq int64) (bool, error) {
	// Testing a lock needs no write access, and a file opened only to
	// read closes without waking the watches of other processes' writes
	// (notify_linux.go), this one's included.
	held, err := s.bytesHeld([]int64{runSeq})
	return len(held) > 0 && held[0], err
}

// bytesHeld reports, for each byte of the lock file, whether some live
// process holds it, opening the file once.
func (s *Store) bytesHeld(bytes []int64) ([]bool, error) {
	held := make([]bool, len(bytes))
	f, err := s.openLeaseFile(os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return held, nil // no lock file: nobody has ever driven a run here
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	for i, b := range bytes {
		lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: b, Len: 1}
		if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
			return nil, err
		}
		held[i] = lk.Type != unix.F_UNLCK
	}
	return held, nil
}

// openLeaseFile opens the lock file without blocking, whatever is there: a
// FIFO put in its place would otherwise hang the open.
func (s *Store) openLeaseFile(flags int) (*os.File, error) {
	name := s.real + "-lease"
	f, err := os.OpenFile(name, flags|unix.O_NONBLOCK|unix.O_NOCTTY, 0o600)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("the lock file %s is %s, not a regular file", name, notRegular(st.Mode()))
		}
		return nil, err
	}
	return f, nil
}

// Release frees the lease. It unlocks the byte before closing the file: a
// child process forked meanwhile (an MCP server, the CLI's children) holds
// the same open file description until it execs, and closing alone would
// leave the run locked until then — a drive right after this one, in this
// process or another, would find it busy.
func (l *Lease) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	k := l.k
	k.mu.Lock()
	defer k.mu.Unlock()
	lk := unix.Flock_t{Type: unix.F_UNLCK, Whence: 0, Start: l.seq, Len: 1}
	err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
	l.f = nil
	delete(k.held, l.seq)
	if cerr := k.closeIfIdle(); err == nil {
		err = cerr
	}
	return err
}

func (k *lockFile) closeIfIdle() error {
	if len(k.held) > 0 || k.f == nil {
		return nil
	}
	err := k.f.Close()
	k.f = nil
	return err
}
