package ui

import (
	"fmt"
	"testing"
	"time"

	"followup/bench/replies"
	"followup/chat"
	"followup/ui/transcript"
)

// BenchmarkStream streams a whole markdown reply into the screen on the
// large database (its newest chat, a form open), in deltas as a model
// sends them, through Update and View as the program runs them. perFrame
// is how many deltas arrive between two frames: 1 is a slow stream, each
// delta drawn on its own; 8 is about 450 deltas a second at 60 frames a
// second. It reports the cost per delta (docs/performance.md: a 6,000-word reply
// ≤ 1.3× per delta of a 500-word one) and the redraws per delta.
func BenchmarkStream(b *testing.B) {
	svc, _ := largeService(b)
	for _, perFrame := range []int{1, 8} {
		for _, words := range []int{500, 1500, 3000, 6000} {
			b.Run(fmt.Sprintf("perFrame=%d/words=%d", perFrame, words), func(b *testing.B) {
				m := openScreen(b, svc, "")
				ds := replies.Deltas(replies.Markdown(words, 1))
				frames := 0
				b.ReportAllocs()
				for b.Loop() {
					m.tr.ClearStream()
					for i, d := range ds {
						m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: "run_bench", Delta: d}))
						if (i+1)%perFrame == 0 || i == len(ds)-1 {
							m.Update(transcript.FrameMsg{})
							frames++
						}
						_ = m.View()
					}
				}
				n := float64(b.N * len(ds))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/delta")
				b.ReportMetric(float64(frames)/n, "frames/delta")
				b.ReportMetric(float64(len(ds)), "deltas")
			})
		}
	}
}

// BenchmarkStreamLongVsShort streams a 6,000-word reply into one screen
// and, delta for delta in turn with it, 500-word replies into another
// (one after the other), timing every delta, so both sizes are measured
// side by side under the same load. It reports the mean cost per delta
// of each and their ratio (docs/performance.md: ≤ 1.3).
func BenchmarkStreamLongVsShort(b *testing.B) {
	svc, _ := largeService(b)
	for _, perFrame := range []int{1, 8} {
		b.Run(fmt.Sprintf("perFrame=%d", perFrame), func(b *testing.B) {
			short, long := openScreen(b, svc, ""), openScreen(b, svc, "")
			shortDs, longDs := replies.Deltas(replies.Markdown(500, 1)), replies.Deltas(replies.Markdown(6000, 1))
			step := func(m *model, ds []string, i int) time.Duration {
				start := time.Now()
				if i == 0 {
					m.tr.ClearStream()
				}
				m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.cur.chatID, RunID: "run_bench", Delta: ds[i]}))
				if (i+1)%perFrame == 0 || i == len(ds)-1 {
					m.Update(transcript.FrameMsg{})
				}
				_ = m.View()
				return time.Since(start)
			}
			var ts, tl time.Duration
			n := 0
			for b.Loop() {
				for i := range longDs {
					ts += step(short, shortDs, n%len(shortDs))
					tl += step(long, longDs, i)
					n++
				}
			}
			b.ReportMetric(float64(ts.Nanoseconds())/float64(n), "ns/delta-500w")
			b.ReportMetric(float64(tl.Nanoseconds())/float64(n), "ns/delta-6000w")
			b.ReportMetric(float64(tl)/float64(ts), "ratio")
		})
	}
}
