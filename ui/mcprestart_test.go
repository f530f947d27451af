package ui

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent/mcp"
	"followup/agent/mcp/mcptest"
	"followup/chat"
	"followup/ui/dialog"
)

// serveLate serves a one-tool MCP server on addr from now on; each request
// waits until gate is closed.
func serveLate(t *testing.T, addr string, gate <-chan struct{}) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "late", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "hello", Description: "Says hello", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello"}}}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true})
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		h.ServeHTTP(w, r)
	}))
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	t.Cleanup(func() {
		// The host may still hold a stream open: it closes after this.
		ts.CloseClientConnections()
		ts.Close()
	})
}

// r in the servers dialog starts a failed server again: the dialog says
// it is starting, then connected with its tools. The key is offered only
// while a server has failed.
func TestServersDialogRestartKey(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nobody listens there yet: the first start fails
	cfg := mcp.Config{Path: "/home/me/mcp.json", Servers: []mcp.ServerConfig{{Name: "late", Type: mcp.TypeHTTP,
		URL: "http://" + addr + "/mcp", Shown: "http://127.0.0.1/late", Timeout: 5 * time.Second}}}
	k := newKit(t, withMCP(t, cfg))
	if err := k.svc.WaitMCP(t.Context()); err != nil {
		t.Fatal(err)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	f := frameOf(k.m)
	if !containsAll(f, "late  failed: cannot connect", "r restart failed servers") {
		t.Fatalf("the dialog does not show the failed server and the key:\n%s", f)
	}
	gate := make(chan struct{})
	serveLate(t, addr, gate)
	k.hit(letter('r'))
	if f := frameOf(k.m); !strings.Contains(f, "late  starting…") || strings.Contains(f, "r restart") {
		t.Fatalf("after r the dialog does not say the server is starting:\n%s", f)
	}
	close(gate)
	if err := k.svc.WaitMCP(t.Context()); err != nil {
		t.Fatal(err)
	}
	k.m.Update(eventMsg(chat.Event{Kind: chat.EvMCP})) // what the host says when it connected
	k.apply(readMCPStatus(k.svc))
	f = frameOf(k.m)
	if !containsAll(f, "late  connected", "1 tool:", "hello — Says hello", "esc close") || strings.Contains(f, "r restart") {
		t.Fatalf("the restarted server is not shown connected with its tools:\n%s", f)
	}
	if !showing[dialog.Servers](k.m) {
		t.Fatal("r closed the servers dialog")
	}
}

// A server killed between two tool calls of the chat screen's agent comes
// back with the second call: the dialog says the killed server's tools
// stay offered, and the second call's reply is the tool's.
func TestKilledServerComesBackOnTheNextCall(t *testing.T) {
	p := mcptest.Find(t)
	command, args := p.EverythingStdio(t)
	cfg := mcp.Config{Path: "/home/me/mcp.json", Servers: []mcp.ServerConfig{{Name: "everything", Type: mcp.TypeStdio,
		Command: command, Args: args, Shown: "server-everything", Timeout: 20 * time.Second, AutoApprove: mcp.AutoApprove{All: true}}}}
	k := newKit(t, withMCP(t, cfg))
	ctx := context.Background()
	echo := func(chatID, msg string) chat.RunView {
		t.Helper()
		sent, err := k.svc.Send(ctx, chatID, `call everything.echo {"message":"`+msg+`"}`, "")
		if err != nil {
			t.Fatal(err)
		}
		run, err := k.svc.Drive(ctx, sent.RunID)
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	first := echo("", "before the kill")
	if !strings.Contains(first.Reply, "before the kill") {
		t.Fatalf("first echo: %+v", first)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	killEverything(t, p)
	deadline := time.Now().Add(10 * time.Second)
	for k.svc.MCPStatus().Servers[0].State != mcp.StateFailed {
		if time.Now().After(deadline) {
			t.Fatalf("the kill was not seen: %+v", k.svc.MCPStatus())
		}
		time.Sleep(10 * time.Millisecond)
	}
	k.m.Update(dialog.ServerStatus{Status: k.svc.MCPStatus()})
	if f := frameOf(k.m); !strings.Contains(f, "everything stopped — the next call of its tools starts it again (f2/ctrl+l: servers)") {
		t.Fatalf("the notice line does not say the server stopped:\n%s", f)
	}
	k.hit(tea.KeyMsg{Type: tea.KeyF2})
	if f := frameOf(k.m); !containsAll(f, "everything  failed: the server closed the connection",
		"its tools stay offered: the next call of one starts it again", "r restart failed servers") {
		t.Fatalf("the dialog after the kill:\n%s", f)
	}
	// At 60 columns the words wrap rather than lose their end.
	k.m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	f := frameOf(k.m)
	for _, line := range strings.Split(f, "\n") {
		if strings.Contains(line, "its tools stay offered") && strings.HasSuffix(strings.TrimSpace(line), "…") {
			t.Fatalf("the dialog at 60 columns cuts the words:\n%s", f)
		}
	}
	if !containsAll(f, "its tools stay offered", "again") {
		t.Fatalf("the dialog at 60 columns:\n%s", f)
	}
	k.m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	second := echo(first.ChatID, "after the kill")
	if second.State != "succeeded" || !strings.Contains(second.Reply, "after the kill") {
		t.Fatalf("the echo after the kill: %+v", second)
	}
	k.apply(readMCPStatus(k.svc))
	if f := frameOf(k.m); !strings.Contains(f, "everything  connected") || strings.Contains(f, "r restart") {
		t.Fatalf("the dialog after the second call:\n%s", f)
	}
}

// killEverything kills with SIGKILL, as a crash would, the server-everything
// processes this test process started (its children whose command line runs
// the package's script), and returns their process ids. It fails the test
// when there is none.
func killEverything(t testing.TB, p mcptest.Peers) []int {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	script := []byte(p.EverythingScript())
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var killed []int
	for _, d := range dirs {
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		if !bytes.Contains(cmd, script) || parentOf(d) != me {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err == nil && syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	if len(killed) == 0 {
		t.Fatal("no server-everything process of this test to kill")
	}
	return killed
}

// parentOf reads the parent process id from /proc/PID/stat (the field after
// the state, which follows the parenthesised command name).
func parentOf(dir string) string {
	stat, _ := os.ReadFile(filepath.Join(dir, "stat"))
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return ""
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return ""
	}
	return string(fields[1])
}
