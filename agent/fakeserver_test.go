package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeServer is a scripted model server on 127.0.0.1: call i is answered by
// step i. It records what each call sent. Tests never leave the machine.
type fakeServer struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	steps []fakeStep
	reqs  []recorded
}

// fakeStep answers one call.
type fakeStep func(w http.ResponseWriter, r *http.Request)

type recorded struct {
	path   string
	header http.Header
	body   map[string]any
}

func newFake(t *testing.T, steps ...fakeStep) *fakeServer {
	t.Helper()
	f := &fakeServer{t: t, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	if !strings.HasPrefix(f.srv.URL, "http://127.0.0.1:") {
		t.Fatalf("fake server is not on loopback: %s", f.srv.URL)
	}
	return f
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request body is not JSON: %v: %s", err, raw)
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{path: r.URL.Path, header: r.Header.Clone(), body: body})
	f.mu.Unlock()
	if n >= len(f.steps) {
		f.t.Errorf("unexpected call %d to %s", n+1, r.URL.Path)
		http.Error(w, "no more steps", http.StatusTeapot)
		return
	}
	f.steps[n](w, r)
}

func (f *fakeServer) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fakeServer) request(i int) recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i >= len(f.reqs) {
		f.t.Fatalf("call %d was not made (%d calls)", i+1, len(f.reqs))
	}
	return f.reqs[i]
}

// jsonReply answers with status and body; headers come in name, value pairs.
func jsonReply(status int, body string, headers ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// sseReply streams events, flushing each so the client sees them one by one.
// Each event is written as given plus a blank line.
func sseReply(events ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) { writeEvents(w, events) }
}

// droppedReply streams events, then cuts the connection without ending the
// body: the client sees io.ErrUnexpectedEOF, as after a network failure.
func droppedReply(events ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, events)
		panic(http.ErrAbortHandler)
	}
}

// hangingReply streams events, then waits until the client goes away.
func hangingReply(events ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, events)
		<-r.Context().Done()
	}
}

func writeEvents(w http.ResponseWriter, events []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		fmt.Fprintf(w, "%s\n\n", e)
		w.(http.Flusher).Flush()
	}
}

// openAIChunk is one chat-completions stream event with the given delta.
func openAIChunk(delta string, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return fmt.Sprintf(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fr)
}

func openAIText(s string) string {
	b, _ := json.Marshal(s)
	return openAIChunk(`{"content":`+string(b)+`}`, "")
}

const openAIDone = "data: [DONE]"

// anthropicEvent is one Messages API stream event.
func anthropicEvent(typ, data string) string {
	return "event: " + typ + "\ndata: " + data
}

func anthropicStart() string {
	return anthropicEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":0}}}`)
}

func anthropicTextBlock(index int, parts ...string) []string {
	out := []string{anthropicEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index))}
	for _, p := range parts {
		b, _ := json.Marshal(p)
		out = append(out, anthropicEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, index, b)))
	}
	return append(out, anthropicEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)))
}

func anthropicStop(reason string) []string {
	return []string{
		anthropicEvent("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+reason+`","stop_sequence":null},"usage":{"output_tokens":5}}`),
		anthropicEvent("message_stop", `{"type":"message_stop"}`),
	}
}

func joinEvents(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// textSink collects streamed text the way a UI would, honouring resets.
type textSink struct {
	mu     sync.Mutex
	text   strings.Builder
	deltas int
	resets int
}

func (s *textSink) onText(d string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.WriteString(d)
	s.deltas++
}

func (s *textSink) onReset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.Reset()
	s.resets++
}

func (s *textSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text.String()
}

// jsonPath walks decoded JSON by object keys and array indexes.
func jsonPath(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// history is a conversation with every message kind, for conversion tests.
var sampleHistory = []Message{
	{Role: RoleUser, Content: "Plan a trip"},
	{Role: RoleAssistant, Content: "Let me check.", ToolCalls: []ToolCall{
		{ID: "call_1", Name: "input_list", Arguments: json.RawMessage(`{}`)},
		{ID: "call_2", Name: "input_capabilities", Arguments: nil},
	}},
	{Role: RoleTool, ToolCallID: "call_1", ToolName: "input_list", Content: `{"ok":true,"requests":[]}`},
	{Role: RoleTool, ToolCallID: "call_2", ToolName: "input_capabilities", Content: `{"ok":true}`},
	{Role: RoleUser, Content: "To Shanghai"},
}

var sampleTools = []ToolSpec{{
	Name: "input_request", Description: "Ask the user",
	Parameters: json.RawMessage(`{"type":"object","required":["requestKey"],"properties":{"requestKey":{"type":"string"}},"additionalProperties":false}`),
}}
