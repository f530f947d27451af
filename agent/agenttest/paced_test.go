package agenttest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"followup/agent"
	"followup/agent/agenttest"
)

// TestPacedTextStreams: the OpenAI provider receives the paced deltas in
// order, whole, no sooner than the rate allows.
func TestPacedTextStreams(t *testing.T) {
	deltas := []string{"Hello", " there", ",\n\n", "**bold**", " and `code`", " — ünïcode", "."}
	for _, rate := range []int{0, 100} {
		s := agenttest.New(t, agenttest.PacedText(deltas, rate))
		var got []string
		start := time.Now()
		resp, err := agent.NewOpenAI(s.URL+"/v1", "sk-test", "m").Complete(context.Background(),
			agent.Request{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}, OnText: func(d string) { got = append(got, d) }})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(deltas, "")
		if resp.Message.Content != want || strings.Join(got, "") != want {
			t.Fatalf("rate %d: content %q, streamed %q", rate, resp.Message.Content, got)
		}
		if min := time.Duration(len(deltas)-1) * time.Second / 100; rate == 100 && time.Since(start) < min {
			t.Fatalf("%d deltas at 100 a second took %s", len(deltas), time.Since(start))
		}
	}
}
