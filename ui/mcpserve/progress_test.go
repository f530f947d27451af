package mcpserve_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
)

// A TypeScript SDK client whose tool timeout is 10 s and resets on
// progress waits with input_wait for an answer given after more than 10 s
// (by `followup answer` from another process) and gets it: serve sends
// progress while the wait lasts.
func TestWaitKeptAliveByProgress(t *testing.T) {
	t.Parallel()
	p := mcptest.Find(t)
	db := filepath.Join(t.TempDir(), "f.db")
	script, _ := filepath.Abs("testdata/waitclient.mjs")
	cmd := exec.Command(p.Node(t), script, filepath.Join(p.Dir, "@modelcontextprotocol", "sdk"), binary(t), db)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	var asked struct{ RequestID string }
	if !lines.Scan() || json.Unmarshal(lines.Bytes(), &asked) != nil || asked.RequestID == "" {
		t.Fatalf("the client did not ask: %q", lines.Text())
	}
	time.Sleep(11 * time.Second)
	if r := followup(t, db, "answer", asked.RequestID, "--values-json", `{"name":"Aurora"}`); r.code != 0 {
		t.Fatalf("answer: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var got struct {
		Progress int
		Error    string
		Result   struct {
			State  string
			Answer struct{ Values map[string]any }
		}
	}
	if !lines.Scan() || json.Unmarshal(lines.Bytes(), &got) != nil {
		t.Fatalf("the client said: %q", lines.Text())
	}
	if got.Error != "" || got.Result.State != "answered" || got.Result.Answer.Values["name"] != "Aurora" || got.Progress < 3 {
		t.Fatalf("the client's wait: %s", lines.Text())
	}
}
