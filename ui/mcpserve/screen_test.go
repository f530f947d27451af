package mcpserve_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/chat"
)

// screen is the followup chat screen in a detached tmux session on its own
// socket, open on the database an agent asks through.
type screen struct {
	t      *testing.T
	socket string
}

func openScreen(t *testing.T, db string) *screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
	s := &screen{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	s.tmux("new-session", "-d", "-x", "100", "-y", "32", "-s", "followup",
		fmt.Sprintf("TERM=xterm-256color %s --db %s", binary(t), db))
	t.Cleanup(s.close)
	return s
}

func (s *screen) close() { exec.Command("tmux", "-S", s.socket, "kill-server").Run() }

func (s *screen) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (s *screen) text() string { return s.tmux("capture-pane", "-p", "-t", "followup") }

// waitFor polls the screen until it shows every one of want, and says how
// long that took.
func (s *screen) waitFor(want ...string) time.Duration {
	s.t.Helper()
	start := time.Now()
	for {
		text := s.text()
		all := true
		for _, w := range want {
			all = all && strings.Contains(text, w)
		}
		if all {
			return time.Since(start)
		}
		if time.Since(start) > 10*time.Second {
			s.t.Fatalf("the screen never showed %q:\n%s", want, text)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *screen) typeText(text string) { s.tmux("send-keys", "-t", "followup", "-l", text) }
func (s *screen) keys(k ...string)     { s.tmux(append([]string{"send-keys", "-t", "followup"}, k...)...) }

func (s *screen) pid() int {
	out := strings.TrimSpace(s.tmux("list-panes", "-t", "followup", "-F", "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		s.t.Fatalf("pane pid %q", out)
	}
	return pid
}

// waitLoop calls input_wait until the request is no longer pending, as an
// agent does, and hands over that result.
func waitLoop(t *testing.T, cs *mcp.ClientSession, id string) <-chan map[string]any {
	out := make(chan map[string]any, 1)
	go func() {
		for {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "input_wait",
				Arguments: map[string]any{"requestId": id, "timeoutSeconds": 2}})
			if err != nil {
				t.Error(err)
				out <- nil
				return
			}
			if m := decodeResult(t, "input_wait", r); m["state"] != "pending" {
				out <- m
				return
			}
		}
	}()
	return out
}

func receive(t *testing.T, ch <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(15 * time.Second):
		t.Fatal("input_wait never returned the answer")
		return nil
	}
}

// The question of an agent appears in the chat screen open in another
// terminal, the user answers it there with the form's review, and the
// agent receives exactly what was confirmed. Killing the screen mid-draft
// loses nothing: the draft is back when it reopens, and the agent's wait
// goes on meanwhile.
func TestAnswerInTheChatScreen(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	scr := openScreen(t, db)
	scr.waitFor("Type a message to start")
	agent := connectStdio(t, db, "Claude Code")

	id := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-1"))["requestId"].(string)
	took := scr.waitFor("To book the trip", "Destination", "Lyon")
	t.Logf("the question appeared in the screen %v after input_request", took)
	if took > 1500*time.Millisecond {
		t.Errorf("the question took %v to appear", took)
	}
	waited := waitLoop(t, agent.ClientSession, id)
	scr.waitFor("tab next field")
	scr.keys("Enter") // keeps the suggested destination
	scr.typeText("3")
	scr.keys("Enter")
	scr.waitFor("Review before sending", "Destination: Lyon", "Travelers: 3")
	scr.keys("Enter")
	got := receive(t, waited)
	if got["state"] != "answered" || canon(got["answer"].(map[string]any)["values"]) != `{"destination":"Lyon","travelers":3}` {
		t.Fatalf("the agent received %v", got)
	}
	scr.waitFor("delivered")

	// A second question, killed mid-draft.
	id2 := callTool(t, agent.ClientSession, "input_request", tripRequest("trip-2"))["requestId"].(string)
	waited = waitLoop(t, agent.ClientSession, id2)
	scr.waitFor("To book the trip", "Lyon", "tab next field")
	scr.keys("Enter")
	scr.typeText("11")
	waitForDraft(t, db, id2, "11")
	if err := syscall.Kill(scr.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	scr.close()
	time.Sleep(300 * time.Millisecond)
	if show(t, db, id2)["state"] != "pending" {
		t.Fatal("the question did not survive the screen")
	}
	again := openScreen(t, db)
	again.waitFor("To book the trip", "11", "tab next field")
	// On through the fields (the form may come back on the first) to the
	// review; a form that just appeared ignores keys for a moment.
	time.Sleep(700 * time.Millisecond)
	for i := 0; i < 4; i++ {
		again.keys("Enter")
		time.Sleep(700 * time.Millisecond)
		if strings.Contains(again.text(), "Review before sending") {
			break
		}
	}
	again.waitFor("Review before sending", "Destination: Lyon", "Travelers: 11")
	again.keys("Enter")
	got = receive(t, waited)
	if canon(got["answer"].(map[string]any)["values"]) != `{"destination":"Lyon","travelers":11}` {
		t.Fatalf("after the screen was killed the agent received %v", got)
	}
}

// waitForDraft waits until the screen has autosaved a draft of id holding
// text.
func waitForDraft(t *testing.T, db, id, text string) {
	t.Helper()
	ctx := context.Background()
	svc, err := chat.Open(ctx, chat.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	waitUntil(t, 10*time.Second, "the draft is saved", func() bool {
		r, err := svc.Request(ctx, id)
		if err != nil {
			return false
		}
		d, ok, _ := svc.LoadDraft(ctx, id, r.Revision)
		return ok && strings.Contains(fmt.Sprint(d.Values), text)
	})
}

// Typed by hand in a terminal, `followup mcp serve` says what it waits
// for, and ctrl+c ends it.
func TestServeByHandSaysWhatItIs(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "f.db")
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
	s := &screen{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	s.tmux("new-session", "-d", "-x", "200", "-y", "10", "-s", "followup",
		fmt.Sprintf("%s --db %s mcp serve; echo exited $?; sleep 30", binary(t), db))
	t.Cleanup(s.close)
	s.waitFor("speaking MCP on stdin and stdout", "claude mcp add followup -- followup mcp serve")
	s.keys("C-c")
	s.waitFor("exited 0")
}
