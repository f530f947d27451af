package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a small raw MCP server over stdio (FOLLOWUP_FAKE_MCP set):
// it misbehaves in the ways real servers do, which no SDK server would.
func TestMain(m *testing.M) {
	if mode := os.Getenv("FOLLOWUP_FAKE_MCP"); mode != "" {
		runFake(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeServer configures the test binary as a stdio server named name in the given modes
// (comma-separated words: ignore-discover, linger).
func fakeServer(name, modes string, extraEnv map[string]string) ServerConfig {
	env := map[string]string{"FOLLOWUP_FAKE_MCP": "on," + modes}
	for k, v := range extraEnv {
		env[k] = v
	}
	return ServerConfig{Name: name, Type: TypeStdio, Command: os.Args[0], Env: env, Shown: "fake " + modes,
		Timeout: 10 * time.Second}
}

type fakeMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

type fake struct {
	modes   map[string]bool
	outMu   sync.Mutex
	waitMu  sync.Mutex
	waiting map[string]chan fakeMsg
	next    int
}

func runFake(modes string) {
	f := &fake{modes: map[string]bool{}, waiting: map[string]chan fakeMsg{}}
	for _, m := range splitComma(modes) {
		f.modes[m] = true
	}
	if f.modes["linger"] {
		// A server that outlives its stdin and SIGTERM, with a child of its own.
		signal.Ignore(syscall.SIGTERM)
		child := exec.Command("sleep", "60")
		if err := child.Start(); err == nil {
			if p := os.Getenv("FAKE_CHILD_PID_FILE"); p != "" {
				_ = os.WriteFile(p, []byte(strconv.Itoa(child.Process.Pid)), 0o600)
			}
		}
	}
	if p := os.Getenv("FAKE_STARTS_FILE"); p != "" {
		// One line per start; "fail-after-first" refuses every start but
		// the first, "fail-first" the first only (restart_test.go).
		before, _ := os.ReadFile(p)
		n := strings.Count(string(before), "\n")
		_ = os.WriteFile(p, append(before, '\n'), 0o600)
		if f.modes["fail-after-first"] && n > 0 || f.modes["fail-first"] && n == 0 {
			fmt.Fprintln(os.Stderr, "fake server refuses to start")
			os.Exit(3)
		}
	}
	if p := os.Getenv("FAKE_PID_FILE"); p != "" {
		_ = os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	if d, err := time.ParseDuration(os.Getenv("FAKE_START_DELAY")); err == nil {
		time.Sleep(d) // a first start installing the server (npx)
	}
	fmt.Fprintln(os.Stderr, "fake server starting; secret env is", len(os.Getenv("FAKE_SECRET")), "bytes")
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var msg fakeMsg
		if json.Unmarshal(sc.Bytes(), &msg) != nil {
			continue
		}
		if msg.Method == "" { // a response to one of our requests
			f.waitMu.Lock()
			ch := f.waiting[string(msg.ID)]
			f.waitMu.Unlock()
			if ch != nil {
				ch <- msg
			}
			continue
		}
		go f.handle(msg)
	}
	if f.modes["linger"] {
		select {}
	}
}

func (f *fake) send(v any) {
	b, _ := json.Marshal(v)
	f.outMu.Lock()
	defer f.outMu.Unlock()
	os.Stdout.Write(append(b, '\n'))
}

func (f *fake) reply(id json.RawMessage, result any) {
	f.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// ask sends a request to the client and waits for its response.
func (f *fake) ask(method string, params any) fakeMsg {
	f.waitMu.Lock()
	f.next++
	id := strconv.Quote("s" + strconv.Itoa(f.next))
	ch := make(chan fakeMsg, 1)
	f.waiting[id] = ch
	f.waitMu.Unlock()
	f.send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	return <-ch
}

func (f *fake) text(id json.RawMessage, s string) {
	f.reply(id, map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}})
}

func (f *fake) handle(msg fakeMsg) {
	switch msg.Method {
	case "server/discover":
		if f.modes["ignore-discover"] {
			return // never answered: the trap of docs/mcp.md
		}
		f.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		f.reply(msg.ID, map[string]any{"protocolVersion": p.ProtocolVersion,
			"capabilities": map[string]any{"tools": map[string]any{}}})
	case "tools/list":
		tools := []any{
			map[string]any{"name": "ask-url", "inputSchema": map[string]any{"type": "object"}},
			map[string]any{"name": "withdraw", "inputSchema": map[string]any{"type": "object"}},
			map[string]any{"name": "which", "inputSchema": map[string]any{"type": "object"},
				"annotations": map[string]any{"readOnlyHint": true}},
			map[string]any{"name": "pid", "inputSchema": map[string]any{"type": "object"}},
			map[string]any{"name": "hang", "inputSchema": map[string]any{"type": "object"}},
			map[string]any{"name": "burst", "inputSchema": map[string]any{"type": "object"}},
		}
		if name := os.Getenv("FAKE_EXTRA_TOOL"); name != "" {
			tools = append(tools, map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}})
		}
		f.reply(msg.ID, map[string]any{"tools": tools})
	case "tools/call":
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		switch p.Name {
		case "ask-url":
			r := f.ask("elicitation/create", map[string]any{"mode": "url", "message": "open it",
				"url": "https://example.com/x", "elicitationId": "e1"})
			b, _ := json.Marshal(r)
			f.text(msg.ID, string(b))
		case "withdraw":
			go f.ask("elicitation/create", map[string]any{"message": "soon withdrawn",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}})
			time.Sleep(300 * time.Millisecond)
			f.waitMu.Lock()
			id := strconv.Quote("s" + strconv.Itoa(f.next))
			f.waitMu.Unlock()
			f.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
				"params": map[string]any{"requestId": json.RawMessage(id), "reason": "gave up"}})
			f.text(msg.ID, "withdrawn")
		case "pid":
			f.text(msg.ID, fmt.Sprint("pid ", os.Getpid()))
		case "burst":
			// n questions at once; says how many were answered and the
			// first refusal's words.
			n, _ := p.Arguments["n"].(float64)
			var mu sync.Mutex
			var wg sync.WaitGroup
			answered, refused := 0, ""
			for range int(n) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := f.ask("elicitation/create", map[string]any{"message": "burst",
						"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
					mu.Lock()
					defer mu.Unlock()
					if r.Error == nil {
						answered++
					} else if refused == "" {
						refused = string(r.Error)
					}
				}()
			}
			wg.Wait()
			f.text(msg.ID, fmt.Sprint("answered ", answered, " refused ", refused))
		case "hang":
			// Never answered; says it has the call (FAKE_HANG_FILE).
			if p := os.Getenv("FAKE_HANG_FILE"); p != "" {
				_ = os.WriteFile(p, []byte("hanging"), 0o600)
			}
		case "which":
			r := f.ask("elicitation/create", map[string]any{"message": fmt.Sprint("for ", p.Arguments["n"]),
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
			f.text(msg.ID, fmt.Sprint("call ", p.Arguments["n"], " ", string(r.Result)))
		}
	case "ping":
		f.reply(msg.ID, map[string]any{})
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// alive reports whether a process exists and is not a zombie (PID 1 in a container may
// never reap an orphan).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// readPid waits for a pid file a fake server writes.
func readPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if pid, perr := strconv.Atoi(string(b)); err == nil && perr == nil && pid > 0 {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// newFakeManager starts a manager on the given servers and waits for them.
func newFakeManager(t *testing.T, el Elicitor, servers ...ServerConfig) *Manager {
	t.Helper()
	var opts Options
	if el != nil {
		opts.Elicitor = el
	}
	opts.LogDir = t.TempDir()
	m := New(Config{Path: "test.json", Servers: servers}, opts)
	t.Cleanup(func() { m.Close() })
	return m
}
