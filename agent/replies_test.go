package agent

import (
	"encoding/json"
	"fmt"
	"net/http"

	"followup/agent/agenttest"
)

// The provider tests' own stream replies, on agenttest's scripted server.

// sseReply streams events, flushing each so the client sees them one by
// one. Each event is written as given plus a blank line.
func sseReply(events ...string) agenttest.Step {
	return func(w http.ResponseWriter, r *http.Request) { agenttest.WriteEvents(w, events) }
}

// droppedReply streams events, then cuts the connection without ending the
// body: the client sees io.ErrUnexpectedEOF, as after a network failure.
func droppedReply(events ...string) agenttest.Step {
	return func(w http.ResponseWriter, r *http.Request) {
		agenttest.WriteEvents(w, events)
		panic(http.ErrAbortHandler)
	}
}

// hangingReply streams events, then waits until the client goes away.
func hangingReply(events ...string) agenttest.Step {
	return func(w http.ResponseWriter, r *http.Request) {
		agenttest.WriteEvents(w, events)
		<-r.Context().Done()
	}
}

// openAIText is a stream event carrying text.
func openAIText(s string) string {
	b, _ := json.Marshal(s)
	return agenttest.OpenAIChunk(`{"content":`+string(b)+`}`, "")
}

// anthropicEvent is one Messages API stream event.
func anthropicEvent(typ, data string) string {
	return "event: " + typ + "\ndata: " + data
}

// anthropicStart opens a Messages API stream.
func anthropicStart() string {
	return anthropicEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":0}}}`)
}

// anthropicTextBlock is a text content block streamed in parts.
func anthropicTextBlock(index int, parts ...string) []string {
	out := []string{anthropicEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index))}
	for _, p := range parts {
		b, _ := json.Marshal(p)
		out = append(out, anthropicEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, index, b)))
	}
	return append(out, anthropicEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)))
}

// anthropicStop ends a Messages API stream with a stop reason.
func anthropicStop(reason string) []string {
	return []string{
		anthropicEvent("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+reason+`","stop_sequence":null},"usage":{"output_tokens":5}}`),
		anthropicEvent("message_stop", `{"type":"message_stop"}`),
	}
}
