package chat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The database file removed under a subscribed host (a chat screen): the
// watch notices and tells its subscribers, ReadOnly says why, and every
// write is refused with DATABASE_UNAVAILABLE.
func TestTheWatchNoticesTheFileRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, Options{DBPath: filepath.Join(t.TempDir(), "followup.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sent, err := s.Send(ctx, "", "Check deployment", "")
	if err != nil {
		t.Fatal(err)
	}
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	events := s.Subscribe(sub)
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("no catch-up look after subscribing")
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(s.Path() + suffix)
	}
	if !nextExternal(events, 10*time.Second) {
		t.Fatal("the removal was not announced")
	}
	if ro := s.ReadOnly(); !strings.Contains(ro, "was removed") || !strings.Contains(ro, "restart followup") {
		t.Fatalf("ReadOnly() = %q", ro)
	}
	_, err = s.Send(ctx, sent.ChatID, "use staging", "")
	if e := AsError(err); e.Code != CodeDatabaseUnavailable || !strings.Contains(e.Message, "was removed") {
		t.Fatalf("a write after the removal: %v", err)
	}
}
