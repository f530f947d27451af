package agenttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// JSONReply answers with status and a JSON body; headers come in name,
// value pairs.
func JSONReply(status int, body string, headers ...string) Step {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// WriteEvents answers with a server-sent event stream of events.
func WriteEvents(w http.ResponseWriter, events []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		fmt.Fprintf(w, "%s\n\n", e)
		w.(http.Flusher).Flush()
	}
}

// OpenAIChunk is one chat-completions stream event with the given delta
// (a JSON object) and finish reason ("" for none).
func OpenAIChunk(delta string, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fr)
}

// OpenAIDone ends a chat-completions stream.
const OpenAIDone = "data: [DONE]"

// OpenAITurn streams one whole assistant turn: text, then tool calls given
// as name, JSON arguments pairs (none ends the turn with "stop"). n keeps
// call ids unique across turns: the calls are call_<n>_<i>.
func OpenAITurn(w http.ResponseWriter, n int, text string, calls ...string) {
	c, _ := json.Marshal(text)
	var tcs []string
	for i := 0; i+1 < len(calls); i += 2 {
		args, _ := json.Marshal(compactJSON(calls[i+1]))
		tcs = append(tcs, fmt.Sprintf(`{"index":%d,"id":"call_%d_%d","type":"function","function":{"name":%q,"arguments":%s}}`,
			i/2, n, i/2, calls[i], args))
	}
	delta, finish := `{"role":"assistant","content":`+string(c)+`}`, "stop"
	if len(tcs) > 0 {
		delta = `{"role":"assistant","content":` + string(c) + `,"tool_calls":[` + strings.Join(tcs, ",") + `]}`
		finish = "tool_calls"
	}
	WriteEvents(w, []string{OpenAIChunk(delta, ""), OpenAIChunk(`{}`, finish), OpenAIDone})
}

// OpenAITurnReply is a step that answers with OpenAITurn (call ids
// call_0_<i>).
func OpenAITurnReply(text string, calls ...string) Step {
	return func(w http.ResponseWriter, r *http.Request) { OpenAITurn(w, 0, text, calls...) }
}

func compactJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
