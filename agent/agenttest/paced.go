package agenttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// PacedText is a step that streams an assistant turn of text in the given
// deltas, perSecond of them a second (0: as fast as the connection takes
// them), each flushed on its own, and ends it with "stop". Deltas are
// sent on a schedule from the first, so a slow moment is caught up, not
// added to the rest.
func PacedText(deltas []string, perSecond int) Step {
	return func(w http.ResponseWriter, r *http.Request) { WritePaced(w, r, deltas, perSecond) }
}

// WritePaced answers with PacedText's stream; it stops early when the
// client goes away.
func WritePaced(w http.ResponseWriter, r *http.Request, deltas []string, perSecond int) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	f := w.(http.Flusher)
	fmt.Fprintf(w, "%s\n\n", OpenAIChunk(`{"role":"assistant","content":""}`, ""))
	f.Flush()
	start := time.Now()
	for i, d := range deltas {
		if perSecond > 0 {
			if wait := time.Until(start.Add(time.Duration(i) * time.Second / time.Duration(perSecond))); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.Context().Done():
					return
				}
			}
		}
		b, _ := json.Marshal(d)
		fmt.Fprintf(w, "%s\n\n", OpenAIChunk(`{"content":`+string(b)+`}`, ""))
		f.Flush()
	}
	fmt.Fprintf(w, "%s\n\n%s\n\n", OpenAIChunk(`{}`, "stop"), OpenAIDone)
	f.Flush()
}
