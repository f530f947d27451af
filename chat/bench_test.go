package chat_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"followup/bench/dataset"
	"followup/chat"
	"followup/forms"
)

// The benchmarks run on a database of the sizes docs/performance.md budgets name
// (1,000 chats, 100,000 messages, 10,000 requests); bench/README.md lists
// the figures.

// largeService opens a private copy of the large database.
func largeService(b *testing.B) (*chat.Service, dataset.Summary) {
	return dataset.Open(b, dataset.Default())
}

// BenchmarkPending is the pending list of every chat at 10,000 requests, as
// full views (with answers, deliveries and proposals).
func BenchmarkPending(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		rs, err := svc.Pending(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if len(rs) != sum.States["pending"] {
			b.Fatalf("%d pending, want %d", len(rs), sum.States["pending"])
		}
	}
}

// BenchmarkPendingItems reads the stored pending list of every chat, as
// `pending --json` does.
func BenchmarkPendingItems(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		l, err := svc.PendingItems(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if l.Len() != sum.States["pending"] {
			b.Fatalf("%d pending, want %d", l.Len(), sum.States["pending"])
		}
	}
}

// BenchmarkPendingChat is one chat's pending list, as the chat screen reads it.
func BenchmarkPendingChat(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Pending(ctx, sum.BigChatID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRequestsChat lists every request of one chat (all states).
func BenchmarkRequestsChat(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Requests(ctx, sum.BigChatID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPendingJSON is what `followup pending --json` does in process:
// the expiry look, reading the stored list and copying it out.
func BenchmarkPendingJSON(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		list, err := svc.PendingItems(ctx, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := list.WriteTo(io.Discard); err != nil || list.Len() != sum.States["pending"] {
			b.Fatalf("%d items, %v", list.Len(), err)
		}
	}
}

// BenchmarkSaveDraft is one draft autosave commit of the 32-field form
// (a durable BEGIN IMMEDIATE … COMMIT).
func BenchmarkSaveDraft(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	r, err := svc.Request(ctx, sum.BigRequestID)
	if err != nil {
		b.Fatal(err)
	}
	vals := [2]forms.Values{{"q00": "a"}, {"q00": "ab", "q03": "two\nlines"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		err := svc.SaveDraft(ctx, chat.Draft{RequestID: r.ID, Revision: r.Revision, Values: vals[i%2], Edited: true})
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkChatList is the first page of the chat list (the chat list's
// and `followup chats`'s read) at 1,000 and at 10,000 chats: a page costs
// the same however many chats there are.
func BenchmarkChatList(b *testing.B) {
	for _, chats := range []int{1000, 10_000} {
		b.Run(fmt.Sprintf("chats=%d", chats), func(b *testing.B) {
			sz := dataset.Default()
			sz.Chats = chats
			svc, _ := dataset.Open(b, sz)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				page, err := svc.ChatList(ctx, "", 0)
				if err != nil || len(page.Chats) != chat.DefaultChatPage || !page.More {
					b.Fatalf("%d chats, more %v, %v", len(page.Chats), page.More, err)
				}
			}
		})
	}
}

// BenchmarkChatSwitch is what the chat screen reads to switch chats, one
// chat after another: the chat list, the chat's first frame (its newest
// transcript page, requests and drafts), and what waits elsewhere.
func BenchmarkChatSwitch(b *testing.B) {
	svc, _ := largeService(b)
	ctx := context.Background()
	page, err := svc.ChatList(ctx, "", 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := svc.ChatList(ctx, "", 0); err != nil {
			b.Fatal(err)
		}
		id := page.Chats[i%len(page.Chats)].ID
		i++
		sc, err := svc.Screen(ctx, id, 60)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range sc.Pending {
			if _, _, err := svc.LoadDraft(ctx, r.ID, r.Revision); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := svc.PendingElsewhere(ctx, id); err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Orphaned(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveComposerDraft is one autosave of the composer's text (a
// durable BEGIN IMMEDIATE … COMMIT), alternating two texts.
func BenchmarkSaveComposerDraft(b *testing.B) {
	svc, sum := largeService(b)
	ctx := context.Background()
	texts := [2]string{"Plan a trip to Oslo in", "Plan a trip to Oslo in June"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := svc.SaveComposerDraft(ctx, sum.BigChatID, texts[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
