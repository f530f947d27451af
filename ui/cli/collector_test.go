package cli_test

import (
	"context"
	"io"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
	"followup/chat"
	"followup/ui/cli"
)

// gogc reads the collector's pace without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// The chat screen starts with the collector held back (400%) and Go's
// 100% comes back a second later; a GOGC the user set stands.
func TestTheScreenStartsWithTheCollectorHeldBack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("TERM", "xterm-256color")
	_, tty := openPTY(t)
	for _, c := range []struct {
		gogc string
		want uint64
	}{{"", 400}, {"50", 50}} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(map[string]int{"": 100, "50": 50}[c.gogc])
		var during uint64
		code := cli.Main([]string{"--db", filepath.Join(t.TempDir(), "f.db")}, tty, io.Discard, io.Discard,
			func(context.Context, chat.Options) error { during = gogc(); return nil })
		if code != 0 || during != c.want {
			t.Fatalf("GOGC=%q: exit %d, the screen started at %d%%, want %d%%", c.gogc, code, during, c.want)
		}
	}
	// The first start's second ends: Go's 100% comes back over the 50% the
	// second left, and no timer of this test is left to fire in another.
	for deadline := time.Now().Add(5 * time.Second); gogc() != 100; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Go's 100%% did not come back: %d%%", gogc())
		}
	}
}

// `mcp serve --http` collects at 400% while it serves; a GOGC the user set
// stands.
func TestServingOverHTTPCollectsLessOften(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	dir := t.TempDir()
	for _, c := range []struct {
		gogc string
		want uint64
	}{{"50", 50}, {"", 400}} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(map[string]int{"": 100, "50": 50}[c.gogc])
		ctx, cancel := context.WithCancel(context.Background())
		var stderr mcptest.SyncBuffer
		done := make(chan int)
		go func() {
			done <- cli.Exec(ctx, []string{"--db", filepath.Join(dir, "f.db"), "mcp", "serve", "--http", "127.0.0.1:0",
				"--token-file", filepath.Join(dir, "token")}, cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr})
		}()
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), "serving MCP on"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("not serving: %s", stderr.String())
			}
		}
		got := gogc()
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("GOGC=%q: exit %d: %s", c.gogc, code, stderr.String())
		}
		if got != c.want {
			t.Errorf("GOGC=%q: serving at %d%%, want %d%%", c.gogc, got, c.want)
		}
	}
}
