package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
)

// scriptedElicitor answers every elicitation with the reply its function gives, and
// keeps what it was asked.
type scriptedElicitor struct {
	mu    sync.Mutex
	asked []Elicitation
	reply func(ctx context.Context, e Elicitation) (Reply, error)
}

func (s *scriptedElicitor) Elicit(ctx context.Context, e Elicitation) (Reply, error) {
	s.mu.Lock()
	s.asked = append(s.asked, e)
	s.mu.Unlock()
	if s.reply == nil {
		return Reply{Action: ActionCancel}, nil
	}
	return s.reply(ctx, e)
}

func (s *scriptedElicitor) questions() []Elicitation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Elicitation(nil), s.asked...)
}

// everything returns a started manager with server-everything configured as
// "everything" over the given transport.
func everything(t *testing.T, transport string, el Elicitor) *Manager {
	t.Helper()
	p := mcptest.Find(t)
	var sc ServerConfig
	switch transport {
	case TypeStdio:
		command, args := p.EverythingStdio(t)
		sc = ServerConfig{Name: "everything", Type: TypeStdio, Command: command, Args: args, Shown: "server-everything stdio"}
	case TypeHTTP:
		url := p.StartEverythingHTTP(t)
		sc = ServerConfig{Name: "everything", Type: TypeHTTP, URL: url, Shown: url}
	}
	sc.Timeout = 20 * time.Second
	m := New(Config{Path: "test", Servers: []ServerConfig{sc}}, Options{Elicitor: el, LogDir: t.TempDir()})
	t.Cleanup(func() { m.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	st := m.Status().Servers[0]
	if st.State != StateConnected {
		t.Fatalf("state %s: %s (log %s)", st.State, st.Reason, st.Log)
	}
	return m
}

func callEverything(t *testing.T, m *Manager, tool, args string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := m.Call(ctx, CallRequest{Server: "everything", Tool: tool, Arguments: json.RawMessage(args),
		Origin: Origin{ChatID: "c1", RunID: "r1", ToolCallID: "call-" + tool}})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func TestEverythingEcho(t *testing.T) {
	for _, tr := range []string{TypeStdio, TypeHTTP} {
		t.Run(tr, func(t *testing.T) {
			m := everything(t, tr, &scriptedElicitor{})
			st := m.Status().Servers[0]
			t.Logf("protocol %s, %d tools", st.Protocol, len(st.Tools))
			tool, ok := m.Lookup("mcp__everything__echo")
			if !ok {
				t.Fatalf("no echo tool: %+v", m.Tools())
			}
			if tool.Description == "" || !strings.Contains(string(tool.InputSchema), "message") {
				t.Errorf("echo tool %+v", tool)
			}
			res := callEverything(t, m, "echo", `{"message":"hello there"}`)
			if res.IsError || !strings.Contains(res.Text, "hello there") {
				t.Fatalf("echo result %+v", res)
			}
		})
	}
}

// allThirteen are values for every field of trigger-elicitation-request's form, none of
// them its default, so the server's echo proves each one arrived as given.
var allThirteen = map[string]any{
	"name": "Ada Lovelace", "check": true, "firstLine": "Call me Ishmael.", "email": "ada@example.org",
	"homepage": "https://example.org/ada", "birthdate": "1815-12-10", "integer": 7, "number": 2.5,
	"untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []string{"Piano", "Drums"},
	"titledSingleSelectEnum": "hero-3", "titledMultipleSelectEnum": []string{"fish-2", "fish-3"},
	"legacyTitledEnum": "pet-4",
}

// rawResult reads the "Raw result:" JSON that server-everything appends to its answer:
// what it received.
func rawResult(t *testing.T, text string) map[string]any {
	t.Helper()
	_, raw, ok := strings.Cut(text, "Raw result: ")
	if !ok {
		t.Fatalf("no raw result in %q", text)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("raw result %q: %v", raw, err)
	}
	return v
}

func TestEverythingFormElicitation(t *testing.T) {
	for _, tr := range []string{TypeStdio, TypeHTTP} {
		t.Run(tr, func(t *testing.T) {
			var action string
			el := &scriptedElicitor{reply: func(ctx context.Context, e Elicitation) (Reply, error) {
				if action == ActionAccept {
					return Reply{Action: action, Content: allThirteen}, nil
				}
				return Reply{Action: action}, nil
			}}
			m := everything(t, tr, el)
			cases := []struct{ action, says string }{
				{ActionAccept, "User provided the requested information"},
				{ActionDecline, "User declined"},
				{ActionCancel, "User cancelled"},
			}
			for i, c := range cases {
				action = c.action
				res := callEverything(t, m, "trigger-elicitation-request", `{}`)
				if !strings.Contains(res.Text, c.says) {
					t.Fatalf("%s: %q", c.action, res.Text)
				}
				raw := rawResult(t, res.Text)
				if raw["action"] != c.action {
					t.Errorf("%s: the server received %v", c.action, raw)
				}
				asked := el.questions()
				if len(asked) != i+1 {
					t.Fatalf("%d elicitations for %d calls", len(asked), i+1)
				}
				e := asked[i]
				if e.Server != "everything" || e.Mode != ModeForm || e.Tool != "trigger-elicitation-request" ||
					e.Origin.ToolCallID != "call-trigger-elicitation-request" || e.Message == "" {
					t.Errorf("elicitation %+v", e)
				}
				var schema struct {
					Properties map[string]any `json:"properties"`
				}
				if err := json.Unmarshal(e.RequestedSchema, &schema); err != nil || len(schema.Properties) != 13 {
					t.Errorf("requested schema has %d properties: %s", len(schema.Properties), e.RequestedSchema)
				}
				if c.action != ActionAccept {
					if _, has := raw["content"]; has {
						t.Errorf("%s sent content: %v", c.action, raw)
					}
					continue
				}
				got, _ := json.Marshal(raw["content"])
				want, _ := json.Marshal(allThirteen)
				if !jsonEqual(t, got, want) {
					t.Errorf("the server received\n%s\nwant\n%s", got, want)
				}
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
