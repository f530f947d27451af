// Package dataset builds a large, realistic followup database for benchmarks
// (docs/performance.md): chats with long markdown transcripts, runs in every state and
// input requests in every state with revisions, drafts, answers, proposals,
// deliveries and receipts. Rows are written as they stand (the store's
// typed writes, and bulk writers of its own for messages and requests;
// chat.Open then rebuilds the pending list), and the same seed always gives
// the same database.
package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"followup/store"
)

// Sizes say how much to build.
type Sizes struct {
	Chats    int
	Messages int // in all chats together
	Requests int // in all chats together
	// BigChat is the message count of the newest chat, the one the chat
	// screen opens. It has two pending requests: the 32-field form and,
	// newest, the travel form the screen shows first.
	BigChat int
	// BigFirst makes the 32-field form the newest, the one shown first.
	BigFirst bool
	// Pending is the percentage of requests still open; the rest are
	// closed in the proportions of stateCycle.
	Pending int
	Seed    uint64
}

// Default is the size docs/performance.md budgets name.
func Default() Sizes {
	return Sizes{Chats: 1000, Messages: 100_000, Requests: 10_000, BigChat: 2000, Pending: 10, Seed: 1}
}

// Summary says what was built.
type Summary struct {
	Chats, Runs, Messages, Requests int
	States                          map[string]int // request state (expired:reason) → count
	BigChatID                       string         // the newest chat
	BigRequestID                    string         // its pending 32-field request
}

// t0 is the generated history's first instant (2025-06-01T00:00:00Z).
const t0 = int64(1748736000000)

// farFuture is a deadline no benchmark reaches (2100-01-01).
const farFuture = int64(4102444800000)

// closedCycle spreads closed requests: two thirds answered, one ninth
// cancelled, two ninths expired (deadline, template withdrawn, task
// stopped). The first entries make every state appear even in a tiny
// database.
var closedCycle = []string{
	"answered", "cancelled", "expired:deadline", "expired:template_invalidated", "expired:task_stopped",
	"answered", "answered", "answered", "answered", "answered", "answered",
	"answered", "answered", "answered", "answered", "answered",
	"cancelled", "expired:task_stopped",
}

// chatsPerTx is how many chats one write transaction carries.
const chatsPerTx = 25

// Build fills st, which should be empty.
func Build(ctx context.Context, st *store.Store, sz Sizes) (Summary, error) {
	if sz.Chats < 1 {
		return Summary{}, fmt.Errorf("at least one chat is needed")
	}
	sz.BigChat = min(sz.BigChat, sz.Messages)
	g := &gen{r: rand.New(rand.NewPCG(sz.Seed, 0x5eed)), sum: Summary{States: map[string]int{}}}
	g.txt = text{g.r}
	err := st.Write(ctx, func(tx store.Handle) error {
		// A big page cache keeps each bulk transaction off the disk until
		// it commits.
		if err := setCacheSize(ctx, tx, 256<<10); err != nil {
			return err
		}
		for _, t := range []store.Template{
			{Name: "bug-report", Definition: mustJSON(kinds[3].def), State: "active", UpdatedAt: t0},
			{Name: "onboarding-2025", Definition: mustJSON(kinds[4].def), State: "invalidated", UpdatedAt: t0},
		} {
			if err := qs.UpsertTemplate(ctx, tx, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	reqIndex := 0
	for first := 0; first < sz.Chats; first += chatsPerTx {
		err := st.Write(ctx, func(tx store.Handle) error {
			for c := first; c < min(first+chatsPerTx, sz.Chats); c++ {
				nReq := share(sz.Requests, sz.Chats, c)
				nMsg := share(sz.Messages-sz.BigChat, sz.Chats-1, c-1)
				if c == 0 {
					nMsg = sz.BigChat
				}
				if err := g.chat(ctx, tx, sz, c, nReq, nMsg, reqIndex); err != nil {
					return fmt.Errorf("chat %d: %w", c, err)
				}
				reqIndex += nReq
			}
			return nil
		})
		if err != nil {
			return g.sum, err
		}
	}
	// The requests were written without chat/, which keeps each pending
	// request's item: the next chat.Open builds them all.
	return g.sum, st.Write(ctx, func(tx store.Handle) error { return qs.MarkPendingItemsStale(ctx, tx) })
}

// share is part i of total split into n nearly equal parts.
func share(total, n, i int) int {
	if n <= 0 || i < 0 {
		return 0
	}
	s := total / n
	if i < total%n {
		s++
	}
	return s
}

type gen struct {
	r   *rand.Rand
	txt text
	sum Summary
	now int64 // the clock of the chat being written
}

func (g *gen) id(prefix string) string { return fmt.Sprintf("%s_%016x", prefix, g.r.Uint64()) }

// tick advances the chat's clock by a few seconds to a few minutes.
func (g *gen) tick() int64 {
	g.now += int64(5_000 + g.r.IntN(180_000))
	return g.now
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
