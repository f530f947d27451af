package ui

import (
	"fmt"
	"testing"

	"followup/bench/replies"
	"followup/chat"
)

// BenchmarkStream streams a whole markdown reply into the screen on the
// large database (its newest chat, a form open), in deltas as a model
// sends them, through Update and View as the program runs them. perFrame
// is how many deltas arrive between two frames: 1 is a slow stream, each
// delta drawn on its own; 8 is about 450 deltas a second at 60 frames a
// second. It reports the cost per delta (DESIGN §13: a 6,000-word reply
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
					m.stream.clear()
					for i, d := range ds {
						m.Update(eventMsg(chat.Event{Kind: chat.EvStream, ChatID: m.chatID, RunID: "run_bench", Delta: d}))
						if (i+1)%perFrame == 0 || i == len(ds)-1 {
							m.Update(streamFrameMsg{})
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
