package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A database file removed or replaced at its path while open takes no
// more writes: they would go into a file no one will read again.
func TestWritesStopWhenTheFileIsRemovedOrReplaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	insert := func(s *Store, id string) error {
		return s.Write(ctx, func(tx Handle) error {
			return qs.InsertChat(ctx, tx, Chat{ID: id, Title: "t", State: ChatActive, CreatedAt: 1, UpdatedAt: 1})
		})
	}
	for _, how := range []string{"removed", "replaced"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "f.db")
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := insert(s, "ch_1"); err != nil || s.ReadOnly() != "" {
				t.Fatalf("before: %v, read-only %q", err, s.ReadOnly())
			}
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
			if how == "replaced" {
				other := filepath.Join(dir, "other.db")
				o, err := Open(ctx, other)
				if err != nil {
					t.Fatal(err)
				}
				o.Close()
				if err := os.Rename(other, path); err != nil {
					t.Fatal(err)
				}
			}
			err = insert(s, "ch_2")
			var ge *GoneError
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), "was "+how) || !strings.Contains(err.Error(), "not saved") || !strings.Contains(err.Error(), path) {
				t.Fatalf("write after the file was %s: %v", how, err)
			}
			if !strings.Contains(s.ReadOnly(), "was "+how) {
				t.Fatalf("ReadOnly() = %q", s.ReadOnly())
			}
		})
	}
}
