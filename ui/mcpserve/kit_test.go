package mcpserve_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The end-to-end tests run the built followup binary: `followup mcp
// serve` for the clients, and its other commands for the user's side.

var (
	buildOnce sync.Once
	binDir    string
	binErr    error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary builds followup once for the package's tests.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "followup-serve-e2e"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "followup"), "followup").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("building followup: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "followup")
}

// cliResult is one run of a followup command.
type cliResult struct {
	code   int
	stdout string
	stderr string
	json   map[string]any
}

// followup runs a followup command on db and decodes its --json output.
func followup(t *testing.T, db string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"--db", db, "--json"}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := cliResult{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("followup %v: %v", args, err)
	}
	json.Unmarshal(out.Bytes(), &r.json)
	return r
}

// show is `followup show ID --json`'s request.
func show(t *testing.T, db, id string) map[string]any {
	t.Helper()
	r := followup(t, db, "show", id)
	req, _ := r.json["request"].(map[string]any)
	if r.code != 0 || req == nil {
		t.Fatalf("show %s: exit %d %s %s", id, r.code, r.stdout, r.stderr)
	}
	return req
}

// stdioClient is a go-sdk client of `followup --db DB mcp serve` over
// stdio, named name.
type stdioClient struct {
	*mcp.ClientSession
	cmd *exec.Cmd
}

func connectStdio(t *testing.T, db, name string) *stdioClient {
	t.Helper()
	cmd := exec.Command(binary(t), "--db", db, "mcp", "serve")
	cmd.Stderr = os.Stderr
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatalf("connect to mcp serve: %v", err)
	}
	sc := &stdioClient{cs, cmd}
	t.Cleanup(func() {
		cs.Close()
		if cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	return sc
}

// callTool calls a tool and decodes the JSON of its text content, checking
// that structured content and isError agree with it.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return decodeResult(t, name, res)
}

func decodeResult(t *testing.T, name string, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out, structured map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: %v: %s", name, err, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &structured)
	if canon(out) != canon(structured) {
		t.Fatalf("%s: structured content %s, text %s", name, b, text)
	}
	if ok, _ := out["ok"].(bool); ok == res.IsError {
		t.Fatalf("%s: isError %v for %s", name, res.IsError, text)
	}
	return out
}

func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// tripRequest is an input_request of two fields, one prefilled.
func tripRequest(key string) map[string]any {
	return map[string]any{
		"requestKey": key,
		"reason":     "To book the trip",
		"source": map[string]any{"kind": "dynamic", "definition": map[string]any{"title": "Trip",
			"fields": []any{
				map[string]any{"name": "destination", "type": "text", "label": "Destination"},
				map[string]any{"name": "travelers", "type": "integer", "label": "Travelers", "min": 1, "max": 12},
			}}},
		"prefill": map[string]any{"destination": "Lyon"},
		"context": map[string]any{"booking": 7},
	}
}

// waitUntil polls cond every 20 ms until it holds or within passes.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// httpServer is `followup --db DB mcp serve --http 127.0.0.1:0`, and an
// HTTP client that sends the token it printed.
type httpServer struct {
	url    string
	token  string
	client *http.Client
	cmd    *exec.Cmd
}

func serveHTTPBinary(t *testing.T, db string, env ...string) *httpServer {
	t.Helper()
	args := []string{"--db", db, "mcp", "serve", "--http", "127.0.0.1:0"}
	if env == nil {
		args = append(args, "--token-file", filepath.Join(t.TempDir(), "token"))
	}
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	started := make(chan *httpServer, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		var url string
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "serving MCP on "); ok {
				url, _, _ = strings.Cut(rest, " ")
			}
			if _, rest, ok := strings.Cut(sc.Text(), "claude mcp add --transport http followup "+url+` --header "Authorization: Bearer `); ok && url != "" {
				token := strings.TrimSuffix(rest, `"`)
				started <- &httpServer{url: url, token: token, client: &http.Client{Transport: bearer(token)}, cmd: cmd}
			}
		}
	}()
	select {
	case srv := <-started:
		return srv
	case <-time.After(20 * time.Second):
		t.Fatal("mcp serve --http never said where it listens")
		return nil
	}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// jsonValue decodes a JSON literal of the test.
func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}
