package store

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReleaseFreesTheLeaseAtOnce: a released lease is free even while
// another reference to its open file description lives on — as in a child
// process forked at that moment, until it execs (a dup stands in for it).
func TestReleaseFreesTheLeaseAtOnce(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	l, err := s.AcquireLease(7)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Dup(int(l.f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	forked := os.NewFile(uintptr(fd), "forked child's copy")
	defer forked.Close()
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := s.AcquireLease(7)
	if err != nil {
		t.Fatalf("the lease is still held after Release: %v", err)
	}
	again.Release()
	if held, err := s.LeaseHeld(7); err != nil || held {
		t.Fatalf("held %v, %v", held, err)
	}
}
