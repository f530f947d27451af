package mcp

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdingElicitor keeps each question open for hold and records how many were open at
// once.
type holdingElicitor struct {
	hold          time.Duration
	mu            sync.Mutex
	open, most, n int
}

func (h *holdingElicitor) Elicit(ctx context.Context, e Elicitation) (Reply, error) {
	h.mu.Lock()
	h.open++
	h.n++
	h.most = max(h.most, h.open)
	h.mu.Unlock()
	time.Sleep(h.hold)
	h.mu.Lock()
	h.open--
	h.mu.Unlock()
	return Reply{Action: ActionDecline}, nil
}

// TestElicitationBurstIsBounded: a call asking 10,000 questions at once has at most 16
// open; the rest are refused with -32602 in words, before they reach the user, and the
// host's memory stays flat.
func TestElicitationBurstIsBounded(t *testing.T) {
	el := &holdingElicitor{hold: 50 * time.Millisecond}
	m := newFakeManager(t, el, fakeServer("f", "", nil))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := m.Call(ctx, CallRequest{Server: "f", Tool: "burst", Arguments: json.RawMessage(`{"n":10000}`),
		Origin: Origin{RunID: "run_1", ToolCallID: "c1"}})
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	if el.most > maxOpenPerCall || el.n < maxOpenPerCall {
		t.Errorf("%d questions reached the user, at most %d at once", el.n, el.most)
	}
	if !strings.Contains(res.Text, "-32602") || !strings.Contains(res.Text, "too many questions at once: 16 of this call's wait") {
		t.Errorf("the server heard %s", res.Text)
	}
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 32<<20 {
		t.Errorf("the heap grew by %d MB", grew>>20)
	}
}

// TestElicitationsPerRunAreBounded: three servers' calls of one run have at most 32
// questions open between them; the server past it hears the run's bound.
func TestElicitationsPerRunAreBounded(t *testing.T) {
	el := &holdingElicitor{hold: 300 * time.Millisecond}
	m := newFakeManager(t, el, fakeServer("a", "", nil), fakeServer("b", "", nil), fakeServer("c", "", nil))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	texts := make([]string, 3)
	for i, name := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := m.Call(ctx, CallRequest{Server: name, Tool: "burst", Arguments: json.RawMessage(`{"n":16}`),
				Origin: Origin{RunID: "run_1", ToolCallID: name}})
			if err != nil {
				t.Error(err)
			}
			texts[i] = res.Text
		}()
	}
	wg.Wait()
	if el.most > maxOpenPerRun || el.most < maxOpenPerCall {
		t.Errorf("%d questions open at once", el.most)
	}
	if all := strings.Join(texts, "\n"); !strings.Contains(all, "32 of this task's wait") {
		t.Errorf("the servers heard %s", all)
	}
}
