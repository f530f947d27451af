package store

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// A child forked by another goroutine keeps a copy of every descriptor
// until it execs, the lease's among them. A released lease must be free at
// once all the same — for this process and for any other — or the next
// driver of the run is refused as "driven by another process".
func TestReleasedLeaseIsFreeWhileChildrenFork(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	true_, err := exec.LookPath("true")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var forks sync.WaitGroup
	for range 2 {
		forks.Add(1)
		go func() {
			defer forks.Done()
			for ctx.Err() == nil {
				exec.Command(true_).Run()
			}
		}()
	}
	defer func() { stop(); forks.Wait() }()

	deadline := time.Now().Add(400 * time.Millisecond)
	rounds := 0
	for ; time.Now().Before(deadline) || rounds < 500; rounds++ {
		l, err := s.AcquireLease(5)
		if err != nil {
			t.Fatalf("round %d: acquire: %v", rounds, err)
		}
		if err := l.Release(); err != nil {
			t.Fatalf("round %d: release: %v", rounds, err)
		}
		if held, err := s.LeaseHeld(5); err != nil || held {
			t.Fatalf("round %d: the released lease still looks held: %v %v", rounds, held, err)
		}
	}
	t.Logf("%d leases taken and released while children forked", rounds)
}
