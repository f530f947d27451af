package mcpserve_test

import (
	"encoding/json"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"followup/agent/mcp/mcptest"
)

// Clients nobody here wrote, installed from the repository's package.json.

// inspector runs inspector-cli 1.0.3 in --cli mode (from its own build
// folder: it reads ../package.json) against `followup --db DB mcp serve`
// and decodes what it prints.
func inspector(t *testing.T, p mcptest.Peers, db string, args ...string) map[string]any {
	t.Helper()
	argv := append([]string{p.InspectorScript(), "--cli", binary(t), "--db", db, "mcp", "serve"}, args...)
	cmd := exec.Command(p.Node(t), argv...)
	cmd.Dir = p.InspectorDir()
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("inspector %v: %v\n%s%s", args, err, out, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("inspector printed no JSON: %v\n%s", err, out)
	}
	return m
}

func TestInspector(t *testing.T) {
	t.Parallel()
	p := mcptest.Find(t)
	db := filepath.Join(t.TempDir(), "f.db")

	list := inspector(t, p, db, "--method", "tools/list")
	var names []string
	for _, tool := range list["tools"].([]any) {
		tm := tool.(map[string]any)
		names = append(names, tm["name"].(string))
		if schema := tm["inputSchema"].(map[string]any); schema["type"] != "object" {
			t.Errorf("%s: input schema %v", tm["name"], schema)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "input_cancel input_capabilities input_list input_read_answer input_request input_wait" {
		t.Errorf("tools/list: %s", got)
	}
	// Listing the tools leaves no chat behind.
	if cs := followup(t, db, "chats").json["chats"].([]any); len(cs) != 0 {
		t.Errorf("chats after tools/list: %v", cs)
	}

	source := `{"kind":"dynamic","definition":{"title":"Release","fields":[{"name":"version","type":"text","label":"Version"},{"name":"notify","type":"boolean","required":false}]}}`
	call := inspector(t, p, db, "--method", "tools/call", "--tool-name", "input_request",
		"--tool-arg", "requestKey=release-1", "--tool-arg", "reason=To tag the release",
		"--tool-arg", "source="+source, "--tool-arg", `prefill={"version":"1.4.0"}`)
	if call["isError"] == true {
		t.Fatalf("tools/call input_request: %v", call)
	}
	var res map[string]any
	text := call["content"].([]any)[0].(map[string]any)["text"].(string)
	if err := json.Unmarshal([]byte(text), &res); err != nil || res["ok"] != true || res["state"] != "pending" {
		t.Fatalf("input_request result: %s", text)
	}
	if canon(call["structuredContent"]) != canon(res) {
		t.Errorf("structured content %v, text %s", call["structuredContent"], text)
	}
	// The inspector left at once: its question expired with its session,
	// and it stays readable under the inspector's name.
	req := show(t, db, res["requestId"].(string))
	if req["state"] != "expired" || req["closedReason"] != "disconnected" ||
		canon(req["owner"]) != `{"kind":"mcp_client","name":"inspector-cli"}` || req["title"] != "Release" {
		t.Errorf("show after the inspector left: %v", req)
	}

	bad := inspector(t, p, db, "--method", "tools/call", "--tool-name", "input_request",
		"--tool-arg", "requestKey=bad", "--tool-arg", `source={"kind":"dynamic","definition":{"title":"T","fields":[{"name":"1x","type":"colour"}]}}`)
	if bad["isError"] != true || !strings.Contains(canon(bad), "INPUT_REQUEST_INVALID") {
		t.Errorf("an invalid request: %v", bad)
	}
}

// conformance runs one server scenario of a conformance runner against
// url and returns its checks.
func conformance(t *testing.T, node, script, url, scenario string) []map[string]any {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(node, script, "server", "--url", url, "--scenario", scenario, "-o", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("conformance %s (%s): %v\n%s", scenario, filepath.Base(filepath.Dir(filepath.Dir(script))), err, out)
	}
	var checks []map[string]any
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Base(path) != "checks.json" {
			return err
		}
		b, _ := os.ReadFile(path)
		var cs []map[string]any
		json.Unmarshal(b, &cs)
		checks = append(checks, cs...)
		return nil
	})
	if len(checks) == 0 {
		t.Errorf("conformance %s wrote no checks:\n%s", scenario, out)
	}
	for _, c := range checks {
		if c["status"] != "SUCCESS" {
			t.Errorf("conformance %s: %s %v: %v", scenario, c["id"], c["status"], c["errorMessage"])
		}
	}
	return checks
}

func TestConformance(t *testing.T) {
	t.Parallel()
	p := mcptest.Find(t)
	db := filepath.Join(t.TempDir(), "f.db")
	srv := serveHTTPBinary(t, db)
	// The runners send no token: a proxy adds it.
	target, _ := url.Parse(srv.url)
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.URL.Path = target.Path
		r.Out.Header.Set("Authorization", "Bearer "+srv.token)
	}})
	defer proxy.Close()
	scenarios := []string{"server-initialize", "ping", "tools-list"}
	for _, sc := range scenarios {
		conformance(t, p.Node(t), p.ConformanceScript(), proxy.URL+"/mcp", sc)
	}
	for _, sc := range scenarios {
		checks := conformance(t, p.Node22(), p.ConformanceNextScript(), proxy.URL+"/mcp", sc)
		wire := false
		for _, c := range checks {
			wire = wire || c["id"] == "wire-schema-valid"
		}
		if !wire {
			t.Errorf("conformance 0.2 %s ran no wire-schema-valid check", sc)
		}
	}
	// The runners' sessions leave nothing behind.
	time.Sleep(100 * time.Millisecond)
	if cs := followup(t, db, "chats").json["chats"].([]any); len(cs) != 0 {
		t.Errorf("chats after the conformance runs: %v", cs)
	}
}
