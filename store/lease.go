package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// ErrLeaseHeld means another driver holds the run.
var ErrLeaseHeld = errors.New("run is driven by another process")

// Lease is the right to drive one run. It is an open-file-description lock
// on one byte (the run's seq) of a lock file beside the database, so the
// kernel frees it the instant its holder dies: no timeout, no stale owner.
type Lease struct{ f *os.File }

// AcquireLease takes the run's lease without waiting, or returns ErrLeaseHeld.
func (s *Store) AcquireLease(runSeq int64) (*Lease, error) {
	f, err := os.OpenFile(s.path+"-lease", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: runSeq, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return nil, ErrLeaseHeld
		}
		return nil, err
	}
	return &Lease{f}, nil
}

// LeaseHeld reports whether some live process holds the run's lease.
func (s *Store) LeaseHeld(runSeq int64) (bool, error) {
	f, err := os.OpenFile(s.path+"-lease", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return false, err
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: runSeq, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		return false, err
	}
	return lk.Type != unix.F_UNLCK, nil
}

// Release frees the lease.
func (l *Lease) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
