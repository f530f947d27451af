package chat_test

import (
	"context"
	"path/filepath"
	"testing"

	"followup/chat"
)

// BenchmarkColdPendingItems is what `followup pending --json` does in its
// process: open the database, read the pending list, close.
func BenchmarkColdPendingItems(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "f.db")
	svc, err := chat.Open(ctx, chat.Options{DBPath: path, ShortLived: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []string{"Check deployment", "Plan a trip", "Summarise notes"} {
		if _, err := svc.Send(ctx, "", m, ""); err != nil {
			b.Fatal(err)
		}
	}
	svc.Close()
	for b.Loop() {
		svc, err := chat.Open(ctx, chat.Options{DBPath: path, ShortLived: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.PendingItems(ctx, ""); err != nil {
			b.Fatal(err)
		}
		svc.Close()
	}
}
