package chat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// streamText folds stream events into each run's text, the way a screen
// shows it: deltas append, a reset clears.
type streamText map[string]*strings.Builder

func (st streamText) apply(e Event) {
	if e.Kind != EvStream {
		return
	}
	b := st[e.RunID]
	if b == nil {
		b = &strings.Builder{}
		st[e.RunID] = b
	}
	if e.Reset {
		b.Reset()
	}
	b.WriteString(e.Delta)
}

func (st streamText) of(run string) string {
	if b := st[run]; b != nil {
		return b.String()
	}
	return ""
}

// TestBrokerMergesForASlowSubscriber: a subscriber that is far behind gets
// a few merged events that say exactly what was streamed, and the run's end
// after its last delta; Publish never waits for it.
func TestBrokerMergesForASlowSubscriber(t *testing.T) {
	t.Parallel()
	b := NewBroker()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := b.Subscribe(ctx)
	var want strings.Builder
	published := make(chan struct{})
	go func() {
		defer close(published)
		for i := range 20000 {
			d := fmt.Sprintf("w%d ", i)
			want.WriteString(d)
			b.Publish(Event{Kind: EvStream, ChatID: "c", RunID: "r", Delta: d})
		}
		for range 1000 {
			b.Publish(Event{Kind: EvThinking, ChatID: "c2", RunID: "r2"}) // a subscriber that does not read never blocks Publish
		}
		b.Publish(Event{Kind: EvRun, ChatID: "c", RunID: "r"})
	}()
	select {
	case <-published:
	case <-time.After(10 * time.Second):
		t.Fatal("Publish waited for a subscriber that does not read")
	}
	got := streamText{}
	n := 0
	for e := range ch {
		n++
		if e.Kind == EvRun {
			break
		}
		got.apply(e)
	}
	if got.of("r") != want.String() {
		t.Fatalf("assembled %d bytes, want %d", len(got.of("r")), want.Len())
	}
	if n > 1000+10 {
		t.Fatalf("%d events for 20,000 deltas: they were not merged", n)
	}
}

// TestBrokerKeepsOrderAndText: whatever the mix of runs, resets and other
// events, and however the subscriber lags, each run's text assembled when
// any other event arrives equals what had been streamed when it was
// published, and stream events are never merged across runs or across
// another event.
func TestBrokerKeepsOrderAndText(t *testing.T) {
	t.Parallel()
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 7))
		b := NewBroker()
		ctx, cancel := context.WithCancel(context.Background())
		ch := b.Subscribe(ctx)
		runs := []string{"a", "b", "c"}
		ref := streamText{}
		var marks []map[string]string // each run's text as each non-stream event is published
		var seq []Event
		for i := range 3000 {
			run := runs[r.IntN(len(runs))]
			switch k := r.IntN(10); {
			case k < 7:
				seq = append(seq, Event{Kind: EvStream, ChatID: "ch_" + run, RunID: run, Delta: fmt.Sprintf("%s%d.", run, i)})
			case k < 8:
				seq = append(seq, Event{Kind: EvStream, ChatID: "ch_" + run, RunID: run, Reset: true})
			default:
				seq = append(seq, Event{Kind: EvRun, ChatID: "ch_" + run, RunID: run})
			}
		}
		for _, e := range seq {
			ref.apply(e)
			if e.Kind != EvStream {
				texts := map[string]string{}
				for _, run := range runs {
					texts[run] = ref.of(run)
				}
				marks = append(marks, texts)
			}
		}
		done := make(chan error, 1)
		go func() {
			got := streamText{}
			seen := 0
			for e := range ch {
				if r.IntN(50) == 0 {
					time.Sleep(time.Millisecond) // fall behind now and then
				}
				if e.Kind != EvStream {
					m := marks[seen]
					for _, run := range runs {
						if got.of(run) != m[run] {
							done <- fmt.Errorf("event %d: run %s shows %q, want %q", seen, run, got.of(run), m[run])
							return
						}
					}
					if seen++; seen == len(marks) {
						done <- nil
						return
					}
					continue
				}
				got.apply(e)
			}
			done <- fmt.Errorf("the channel closed after %d of %d events", seen, len(marks))
		}()
		for _, e := range seq {
			b.Publish(e)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("seed %d: the subscriber got stuck", seed)
		}
		cancel()
		b.Close()
	}
}

// TestBrokerClose: closing the broker closes its subscriptions, and a later
// subscription gets a closed channel.
func TestBrokerClose(t *testing.T) {
	t.Parallel()
	b := NewBroker()
	ch := b.Subscribe(context.Background())
	b.Publish(Event{Kind: EvRun})
	b.Close()
	for range ch {
	}
	if _, ok := <-b.Subscribe(context.Background()); ok {
		t.Fatal("a subscription after Close is open")
	}
}

// TestBrokerKeepsLatestProgress: a subscriber that is behind gets only the
// latest progress of a call, in its place among the other events.
func TestBrokerKeepsLatestProgress(t *testing.T) {
	t.Parallel()
	b := NewBroker()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := b.Subscribe(ctx)
	b.Publish(Event{Kind: EvRun, RunID: "r"}) // handed over at once: the rest queue behind it
	for i := range 100 {
		b.Publish(Event{Kind: EvProgress, RunID: "r", ToolCallID: "t", Progress: fmt.Sprint(i)})
	}
	b.Publish(Event{Kind: EvProgress, RunID: "r", ToolCallID: "u", Progress: "u"})
	b.Publish(Event{Kind: EvToolStep, RunID: "r", ToolCallID: "t"})
	var got []string
	for e := range ch {
		got = append(got, e.Kind+":"+e.Progress)
		if e.Kind == EvToolStep {
			break
		}
	}
	// The first progress may be handed over before the rest queue.
	if s := strings.Join(got, " "); !strings.HasSuffix(s, "progress:99 progress:u toolstep:") || len(got) > 5 {
		t.Fatalf("events %q", got)
	}
}
