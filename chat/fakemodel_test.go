package chat_test

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

// fakeModel is an OpenAI-compatible chat-completions server on 127.0.0.1.
// Scripted steps answer the next calls in order; after them it plays a
// small deploy agent that decides from the conversation alone, so a call
// repeated after a crash gets the same answer.
type fakeModel struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	script  []fakeStep
	bodies  []fakeBody
	auths   []string
	stalled chan struct{} // one value each time a stall step begins
}

type fakeStep func(w http.ResponseWriter, r *http.Request)

// fakeBody is the part of a request the tests read.
type fakeBody struct {
	Messages []struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func newFakeModel(t *testing.T) *fakeModel {
	t.Helper()
	f := &fakeModel{t: t, stalled: make(chan struct{}, 8)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	if !strings.HasPrefix(f.srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the fake model is not on loopback: %s", f.srv.URL)
	}
	return f
}

// env selects this server as the openai provider of a child.
func (f *fakeModel) env(key string) []string {
	return []string{"FOLLOWUP_PROVIDER=openai", "OPENAI_BASE_URL=" + f.srv.URL + "/v1", "OPENAI_API_KEY=" + key}
}

// then queues steps for the next calls.
func (f *fakeModel) then(steps ...fakeStep) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = append(f.script, steps...)
}

func (f *fakeModel) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fakeModel) body(i int) fakeBody {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[i]
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var b fakeBody
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") || json.Unmarshal(raw, &b) != nil {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, b)
	f.auths = append(f.auths, r.Header.Get("Authorization"))
	var step fakeStep
	if len(f.script) > 0 {
		step, f.script = f.script[0], f.script[1:]
	}
	f.mu.Unlock()
	if step != nil {
		step(w, r)
		return
	}
	deployAgent(w, b, n)
}

// deployAgent asks for an environment, then replies naming the answer.
func deployAgent(w http.ResponseWriter, b fakeBody, n int) {
	last := b.Messages[len(b.Messages)-1]
	var res struct {
		Status string `json:"status"`
		Values struct {
			Environment string `json:"environment"`
		} `json:"values"`
	}
	json.Unmarshal([]byte(last.Content), &res)
	switch {
	case res.Status == "input_received":
		sseText(w, "Deploying to "+res.Values.Environment+".")
	case res.Status == "input_cancelled":
		sseText(w, "Going on without an environment.")
	case last.Role == "tool":
		sseText(w, "Waiting for your answer.")
	default:
		sseTools(w, n, "Which environment?", "input_request", deployRequest)
	}
}

const deployRequest = `{"requestKey":"deploy-environment","reason":"The deployment needs a target",
 "source":{"kind":"dynamic","definition":{"title":"Choose an environment","fields":[
  {"name":"environment","type":"select","label":"Environment","options":["production","staging"]}]}}}`

// stall begins a reply and holds it until the client goes away.
func (f *fakeModel) stall() fakeStep {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		f.stalled <- struct{}{}
		<-r.Context().Done()
	}
}

// status answers with an HTTP error; headers come in name, value pairs.
func status(code int, body string, headers ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// toolsStep answers with tool calls, each a name and its JSON arguments.
func toolsStep(text string, calls ...string) fakeStep {
	return func(w http.ResponseWriter, r *http.Request) { sseTools(w, 0, text, calls...) }
}

func sseText(w http.ResponseWriter, text string) {
	c, _ := json.Marshal(text)
	sse(w, `{"role":"assistant","content":`+string(c)+`}`, "stop")
}

// sseTools streams one turn with text and tool calls (name, arguments
// pairs); n keeps call ids unique across turns.
func sseTools(w http.ResponseWriter, n int, text string, calls ...string) {
	c, _ := json.Marshal(text)
	var tcs []string
	for i := 0; i+1 < len(calls); i += 2 {
		args, _ := json.Marshal(compactJSON(calls[i+1]))
		tcs = append(tcs, fmt.Sprintf(`{"index":%d,"id":"call_%d_%d","type":"function","function":{"name":%q,"arguments":%s}}`,
			i/2, n, i/2, calls[i], args))
	}
	sse(w, `{"role":"assistant","content":`+string(c)+`,"tool_calls":[`+strings.Join(tcs, ",")+`]}`, "tool_calls")
}

func sse(w http.ResponseWriter, delta, finish string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	chunk := `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}` + "\n\n"
	fmt.Fprintf(w, chunk, delta, "null")
	fmt.Fprintf(w, chunk, `{}`, `"`+finish+`"`)
	io.WriteString(w, "data: [DONE]\n\n")
}

func compactJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
