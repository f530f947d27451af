package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Writes that queue behind a commit are committed together, each in its own
// savepoint: a failing one takes back only its own rows, a caller that
// gives up while queued writes nothing, and the rest commit.
func TestQueuedWritesCommitTogetherAndFailAlone(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	if err := s.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, "CREATE TABLE g (n INTEGER)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	release, holding := make(chan struct{}), make(chan struct{})
	go s.Write(ctx, func(tx Handle) error {
		close(holding)
		<-release
		return nil
	})
	<-holding

	const n = 20
	boom := errors.New("boom")
	errs := make([]error, n)
	handles := make([]Handle, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.Write(ctx, func(tx Handle) error {
				handles[i] = tx
				if _, err := tx.ExecContext(ctx, "INSERT INTO g VALUES (?)", i); err != nil {
					return err
				}
				if i%2 == 1 {
					return boom
				}
				return nil
			})
		})
	}
	gaveUp, cancel := context.WithCancel(ctx)
	var abandoned error
	wg.Go(func() {
		abandoned = s.Write(gaveUp, func(tx Handle) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO g VALUES (-1)")
			return err
		})
	})
	for queued := 0; queued < n+1; time.Sleep(time.Millisecond) {
		s.writes.mu.Lock()
		queued = len(s.writes.queue)
		s.writes.mu.Unlock()
	}
	cancel()
	for s.queued(gaveUp) {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()

	if !errors.Is(abandoned, context.Canceled) {
		t.Errorf("a write given up while queued: %v", abandoned)
	}
	for i, err := range errs {
		if want := error(nil); i%2 == 1 {
			want = boom
			if !errors.Is(err, want) {
				t.Errorf("write %d: %v, want %v", i, err, want)
			}
		} else if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
		if handles[i] != handles[0] {
			t.Errorf("write %d ran in a transaction of its own", i)
		}
	}
	var rows, sum int
	if err := s.Reader().QueryRowContext(ctx, "SELECT count(*), coalesce(sum(n), 0) FROM g").Scan(&rows, &sum); err != nil {
		t.Fatal(err)
	}
	if rows != n/2 || sum != 90 { // 0+2+…+18
		t.Errorf("committed %d rows summing to %d, want the %d even ones (90)", rows, sum, n/2)
	}
}

// queued reports whether a write under ctx is still waiting in the queue.
func (s *Store) queued(ctx context.Context) bool {
	s.writes.mu.Lock()
	defer s.writes.mu.Unlock()
	for _, w := range s.writes.queue {
		if w.ctx == ctx {
			return true
		}
	}
	return false
}

// In a shared commit, a write whose caller's context ends while it runs,
// and a write that panics, cost only themselves: the others commit, and the
// panic is raised in the goroutine whose write it was.
func TestQueuedWritesSurviveACancelAndAPanic(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	ctx := context.Background()
	if err := s.Write(ctx, func(tx Handle) error {
		_, err := tx.ExecContext(ctx, "CREATE TABLE g (n INTEGER)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	release, holding := make(chan struct{}), make(chan struct{})
	go s.Write(ctx, func(tx Handle) error {
		close(holding)
		<-release
		return nil
	})
	<-holding
	insert := func(ctx context.Context, tx Handle, n int) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO g VALUES (?)", n)
		return err
	}
	var wg sync.WaitGroup
	var before, after, cancelled error
	var recovered any
	wg.Go(func() { before = s.Write(ctx, func(tx Handle) error { return insert(ctx, tx, 1) }) })
	mine, cancel := context.WithCancel(ctx)
	wg.Go(func() {
		cancelled = s.Write(mine, func(tx Handle) error {
			cancel() // the caller gives up while its write runs
			return insert(mine, tx, 2)
		})
	})
	wg.Go(func() {
		defer func() { recovered = recover() }()
		s.Write(ctx, func(tx Handle) error {
			insert(ctx, tx, 100)
			panic("boom")
		})
	})
	wg.Go(func() { after = s.Write(ctx, func(tx Handle) error { return insert(ctx, tx, 4) }) })
	for queued := 0; queued < 4; time.Sleep(time.Millisecond) {
		s.writes.mu.Lock()
		queued = len(s.writes.queue)
		s.writes.mu.Unlock()
	}
	close(release)
	wg.Wait()
	if before != nil || after != nil || cancelled != nil {
		t.Errorf("writes beside a cancel and a panic: %v, %v; the cancelled one: %v", before, after, cancelled)
	}
	if recovered != "boom" {
		t.Errorf("the panicking write's caller recovered %v", recovered)
	}
	var sum int
	if err := s.Reader().QueryRowContext(ctx, "SELECT coalesce(sum(n), 0) FROM g").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if sum != 7 { // 1 + 2 + 4: the panicking write's row taken back
		t.Errorf("committed rows sum to %d, want 7", sum)
	}
}
