package chat_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"followup/bench/dataset"
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

// BenchmarkColdPendingJSON is `followup pending --json` on the large
// database, in process: open it as a short-lived reader, read the stored
// list (1,001 entries, 110 with a waiting proposal), copy it out, close.
// Each iteration opens afresh: a new connection parses the schema and maps
// the file again, as each command does.
func BenchmarkColdPendingJSON(b *testing.B) {
	ctx := context.Background()
	path, sum, err := dataset.Copy(b.TempDir(), dataset.Default())
	if err != nil {
		b.Fatal(err)
	}
	warm, err := chat.Open(ctx, chat.Options{DBPath: path}) // migrated and its items filled once
	if err != nil {
		b.Fatal(err)
	}
	warm.Close()
	b.ReportAllocs()
	for b.Loop() {
		svc, err := chat.Open(ctx, chat.Options{DBPath: path, ShortLived: true})
		if err != nil {
			b.Fatal(err)
		}
		list, err := svc.PendingItems(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := list.WriteTo(io.Discard); err != nil || list.Len() != sum.States["pending"] {
			b.Fatalf("%d items, %v", list.Len(), err)
		}
		svc.Close()
	}
}
