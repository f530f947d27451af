package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func waitAll(t *testing.T, m *Manager) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestConnectRetriesOnLegacyProtocol: a server that never answers server/discover is
// retried on 2025-11-25 within the entry's timeout; one that refuses it is connected in
// the same session. Neither names itself (no serverInfo): the config key names it.
func TestConnectRetriesOnLegacyProtocol(t *testing.T) {
	silent := fakeServer("silent", "ignore-discover", nil)
	silent.Timeout = 2 * time.Second
	m := newFakeManager(t, nil, silent, fakeServer("plain", "", nil))
	m.Start()
	waitAll(t, m)
	for _, st := range m.Status().Servers {
		if st.State != StateConnected || st.Protocol != legacyProtocol || len(st.Tools) != 6 {
			t.Errorf("%s: %+v", st.Name, st)
		}
		log, _ := os.ReadFile(st.Log)
		retried := strings.Contains(string(log), "retrying on "+legacyProtocol)
		if retried != (st.Name == "silent") {
			t.Errorf("%s: retried=%v; log:\n%s", st.Name, retried, log)
		}
	}
	if _, ok := m.Lookup("mcp__silent__ask-url"); !ok {
		t.Errorf("tools are not named by the config key: %+v", m.Tools())
	}
}

// TestSlowFirstStartIsNotStopped: a stdio server that takes longer than its timeout to
// start (npx installing it) is said to be still starting — Wait returns — and is neither
// stopped nor started again: it connects when it is ready.
func TestSlowFirstStartIsNotStopped(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	slow := fakeServer("slow", "", map[string]string{"FAKE_START_DELAY": "2s", "FAKE_STARTS_FILE": starts})
	slow.Timeout = 400 * time.Millisecond
	m := newFakeManager(t, nil, slow)
	m.Start()
	waitAll(t, m)
	if st := m.Status().Servers[0]; st.State != StateConnecting || !strings.HasPrefix(st.Words(), "is still starting: no answer after 400ms") {
		t.Fatalf("after its timeout: %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	res, err := m.Call(ctx, CallRequest{Server: "slow", Tool: "pid"})
	if err != nil || !strings.HasPrefix(res.Text, "pid ") {
		t.Fatalf("call: %+v %v", res, err)
	}
	if st := m.Status().Servers[0]; st.State != StateConnected || st.Reason != "" || len(st.Tools) != 6 {
		t.Errorf("connected: %+v", st)
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "\n") != 1 {
		t.Errorf("started %d times", strings.Count(string(b), "\n"))
	}
}

// TestWithdrawnElicitationEndsTheElicitorContext: a server cancelling its request ends
// the context the Elicitor waits on (chat closes the form as withdrawn).
func TestWithdrawnElicitationEndsTheElicitorContext(t *testing.T) {
	ended := make(chan error, 1)
	el := &scriptedElicitor{reply: func(ctx context.Context, e Elicitation) (Reply, error) {
		select {
		case <-ctx.Done():
			ended <- ctx.Err()
			return Reply{}, ctx.Err()
		case <-time.After(10 * time.Second):
			ended <- nil
			return Reply{Action: ActionCancel}, nil
		}
	}}
	m := newFakeManager(t, el, fakeServer("f", "", nil))
	res, err := m.Call(context.Background(), CallRequest{Server: "f", Tool: "withdraw"})
	if err != nil || res.Text != "withdrawn" {
		t.Fatalf("%v %+v", err, res)
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the Elicitor's context did not end when the server withdrew")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the Elicitor still waits")
	}
}

// TestElicitationBelongsToItsCall: concurrent calls to one server are made one at a time,
// so each elicitation is handed over with the call that caused it.
func TestElicitationBelongsToItsCall(t *testing.T) {
	el := &scriptedElicitor{reply: func(ctx context.Context, e Elicitation) (Reply, error) {
		time.Sleep(20 * time.Millisecond) // let the other calls pile up
		return Reply{Action: ActionAccept, Content: map[string]any{}}, nil
	}}
	m := newFakeManager(t, el, fakeServer("f", "", nil))
	var wg sync.WaitGroup
	for n := 1; n <= 4; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := m.Call(context.Background(), CallRequest{Server: "f", Tool: "which",
				Arguments: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)), Origin: Origin{ToolCallID: fmt.Sprint("call-", n)}})
			if err != nil || !strings.HasPrefix(res.Text, fmt.Sprint("call ", n, " ")) {
				t.Errorf("call %d: %v %+v", n, err, res)
			}
		}()
	}
	wg.Wait()
	asked := el.questions()
	if len(asked) != 4 {
		t.Fatalf("%d elicitations", len(asked))
	}
	for _, e := range asked {
		n := strings.TrimPrefix(e.Message, "for ")
		if e.Origin.ToolCallID != "call-"+n || e.Tool != "which" {
			t.Errorf("elicitation %q handed over as %+v", e.Message, e)
		}
	}
}

// TestCloseKillsTheWholeTree: servers that ignore EOF and SIGTERM, with children of
// their own, are gone — children too — a little after a second.
func TestCloseKillsTheWholeTree(t *testing.T) {
	dir := t.TempDir()
	var servers []ServerConfig
	for i := range 3 {
		servers = append(servers, fakeServer(fmt.Sprint("linger", i), "linger",
			map[string]string{"FAKE_CHILD_PID_FILE": filepath.Join(dir, strconv.Itoa(i))}))
	}
	m := newFakeManager(t, nil, servers...)
	waitAll(t, m)
	var children []int
	for i := range 3 {
		children = append(children, readPid(t, filepath.Join(dir, strconv.Itoa(i))))
	}
	start := time.Now()
	m.Close()
	took := time.Since(start)
	t.Logf("closed 3 lingering servers in %s", took)
	if took > 3*time.Second {
		t.Errorf("Close took %s", took)
	}
	for _, pid := range children {
		deadline := time.Now().Add(time.Second)
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("child %d of a closed server lives on", pid)
		}
	}
}

// TestSecretsStayOutOfLogsAndStatus: env values and headers never reach the server log
// followup writes or the status snapshot.
func TestSecretsStayOutOfLogsAndStatus(t *testing.T) {
	const secret = "s3cr3t-value-0123456789"
	sc := fakeServer("f", "", map[string]string{"FAKE_SECRET": secret})
	sc.Shown = "fake --token ${FAKE_SECRET}"
	hs := ServerConfig{Name: "h", Type: TypeHTTP, URL: "http://127.0.0.1:1/mcp", Shown: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer " + secret}, Timeout: time.Second}
	m := newFakeManager(t, nil, sc, hs)
	waitAll(t, m)
	st := m.Status()
	b, _ := json.Marshal(st)
	if strings.Contains(string(b), secret) {
		t.Errorf("status holds the secret: %s", b)
	}
	if s := fmt.Sprint(sc, hs); strings.Contains(s, secret) {
		t.Errorf("String holds the secret: %s", s)
	}
	m.Close()
	for _, srv := range st.Servers {
		log, _ := os.ReadFile(srv.Log)
		if strings.Contains(string(log), secret) {
			t.Errorf("%s's log holds the secret:\n%s", srv.Name, log)
		}
		if srv.Name == "f" && !strings.Contains(string(log), "secret env is 23 bytes") {
			t.Errorf("the server's stderr is not in its log:\n%s", log)
		}
	}
}

// TestCloseEndsAPendingElicitation: closing while a question waits ends the Elicitor's
// context (chat expires the request "disconnected") and the call returns an error.
func TestCloseEndsAPendingElicitation(t *testing.T) {
	asked := make(chan struct{})
	ended := make(chan error, 1)
	el := &scriptedElicitor{reply: func(ctx context.Context, e Elicitation) (Reply, error) {
		close(asked)
		<-ctx.Done()
		ended <- ctx.Err()
		return Reply{}, ctx.Err()
	}}
	m := New(Config{Servers: []ServerConfig{fakeServer("f", "", nil)}}, Options{Elicitor: el, LogDir: t.TempDir()})
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := m.Call(context.Background(), CallRequest{Server: "f", Tool: "which", Arguments: json.RawMessage(`{"n":1}`)})
		done <- outcome{res, err}
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("never asked")
	}
	start := time.Now()
	m.Close()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close took %s with a question waiting", took)
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Error("the Elicitor's context did not end")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the Elicitor still waits after Close")
	}
	select {
	case got := <-done:
		// Either the connection ended first, or the server, its question
		// ended without a person's choice (an error or cancel), answered in
		// time: never an accept or a decline.
		if got.err == nil && (strings.Contains(got.res.Text, "accept") || strings.Contains(got.res.Text, "decline")) {
			t.Errorf("the call after Close = %+v", got.res)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the call still waits after Close")
	}
}
