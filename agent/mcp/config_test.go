package mcp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

func env(vars map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestExpand(t *testing.T) {
	look := env(map[string]string{"TOKEN": "abc", "EMPTY": ""})
	cases := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"Bearer ${TOKEN}", "Bearer abc", ""},
		{"${TOKEN}${TOKEN}", "abcabc", ""},
		{"${MISSING:-fallback}", "fallback", ""},
		{"${EMPTY:-fallback}", "fallback", ""},
		{"${EMPTY}", "", ""},
		{"${MISSING:-}", "", ""},
		{"${TOKEN:-x}", "abc", ""},
		{"$TOKEN and $", "$TOKEN and $", ""},
		{"${MISSING}", "", "${MISSING} is not set"},
		{"${TOKEN", "", "no closing }"},
		{"${9X}", "", "not a variable reference"},
		{"${A B}", "", "not a variable reference"},
	}
	for _, c := range cases {
		got, err := expand(c.in, look)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("expand(%q) = %q, %v; want error %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestParseConfig: the docs/mcp.md example loads as written; each bad entry is one
// problem naming file, JSON Pointer and reason, and the other entries still load.
func TestParseConfig(t *testing.T) {
	doc := `{ "mcpServers": {
	  "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"],
	                  "env": { "KEY": "${KEY}" }, "autoApprove": ["echo"] },
	  "remote": { "type": "http", "url": "http://127.0.0.1:3001/mcp",
	              "headers": { "Authorization": "Bearer ${TOKEN:-}" }, "disabled": false },
	  "inferred": { "url": "https://example.com/mcp", "timeout": 2.5, "autoApprove": true },
	  "off": { "command": "srv", "disabled": true, "cwd": "/ignored" },
	  "no-command": { "args": ["x"] },
	  "bad-url": { "type": "http", "url": "ftp://host/x" },
	  "bad-type": { "type": "websocket", "url": "ws://x" },
	  "sse": { "type": "sse", "url": "http://x/sse" },
	  "bad-arg": { "command": "x", "args": ["ok", 3] },
	  "bad-env": { "command": "x", "env": { "A": "${UNSET_VAR}" } },
	  "bad/timeout": { "command": "x", "timeout": 0 },
	  "bad-approve": { "command": "x", "autoApprove": "echo" },
	  "bad-header": { "url": "http://x/", "headers": { "Bad Name": "v" } },
	  "not-object": [1]
	} }`
	servers, problems := Parse("mcp.json", []byte(doc), env(map[string]string{"KEY": "k1"}))
	names := []string{}
	for _, s := range servers {
		names = append(names, s.Name)
	}
	if want := []string{"everything", "inferred", "off", "remote"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("loaded %v, want %v", names, want)
	}
	byName := map[string]ServerConfig{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	ev := byName["everything"]
	if ev.Type != TypeStdio || ev.Command != "npx" || !reflect.DeepEqual(ev.Args, []string{"-y", "@modelcontextprotocol/server-everything"}) ||
		ev.Env["KEY"] != "k1" || !ev.AutoApprove.Allows("echo") || ev.AutoApprove.Allows("add") || ev.Timeout != 10*time.Second {
		t.Errorf("everything %+v", ev)
	}
	if r := byName["remote"]; r.Type != TypeHTTP || r.Headers["Authorization"] != "Bearer " || r.Shown != "http://127.0.0.1:3001/mcp" || r.Disabled {
		t.Errorf("remote %+v", r)
	}
	if in := byName["inferred"]; in.Type != TypeHTTP || in.Timeout != 2500*time.Millisecond || !in.AutoApprove.Allows("anything") {
		t.Errorf("inferred %+v", in)
	}
	if !byName["off"].Disabled {
		t.Error("off is not disabled")
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{
		"mcp.json: /mcpServers/bad-approve/autoApprove: must be true or a list of tool names",
		"mcp.json: /mcpServers/bad-arg/args/1: must be a string",
		"mcp.json: /mcpServers/bad-env/env/A: ${UNSET_VAR} is not set (write ${UNSET_VAR:-} to allow it empty)",
		`mcp.json: /mcpServers/bad-header/headers/Bad Name: not a valid header name`,
		`mcp.json: /mcpServers/bad-type/type: "websocket" is not a server type: use "stdio" or "http"`,
		`mcp.json: /mcpServers/bad-url/url: "ftp://host/x" is not an http or https URL`,
		"mcp.json: /mcpServers/bad~1timeout/timeout: must be more than 0 and at most 600 seconds",
		"mcp.json: /mcpServers/no-command/command: a stdio server needs a command",
		"mcp.json: /mcpServers/not-object: not an object",
		`mcp.json: /mcpServers/sse/type: "sse" is not supported; use "http" (streamable HTTP)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseConfigWholeFile(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"{\n  \"mcpServers\": {,\n}", "f.json: not valid JSON at line 2, column 18"},
		{`[1,2]`, "f.json: the file must hold one JSON object"},
		{`{"servers": {}}`, `f.json: no "mcpServers" object`},
		{`{"mcpServers": []}`, "f.json: /mcpServers: not an object"},
		{`{"mcpServers": {}}`, ""},
	}
	for _, c := range cases {
		servers, problems := Parse("f.json", []byte(c.doc), env(nil))
		if len(servers) != 0 {
			t.Errorf("%s: servers %v", c.doc, servers)
		}
		switch {
		case c.want == "" && len(problems) != 0:
			t.Errorf("%s: %v", c.doc, problems)
		case c.want != "" && (len(problems) != 1 || !strings.HasPrefix(problems[0].Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.doc, problems, c.want)
		}
	}
}

func TestLoadAndConfigPath(t *testing.T) {
	dir := t.TempDir()
	vars := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return vars[k] }
	if p, explicit := ConfigPath("", getenv); p != "/home/u/.config/followup/mcp.json" || explicit {
		t.Errorf("default %s %v", p, explicit)
	}
	vars["XDG_CONFIG_HOME"] = "/xdg"
	if p, _ := ConfigPath("", getenv); p != "/xdg/followup/mcp.json" {
		t.Errorf("xdg %s", p)
	}
	vars[EnvConfig] = "/env.json"
	if p, explicit := ConfigPath("", getenv); p != "/env.json" || !explicit {
		t.Errorf("env %s", p)
	}
	if p, explicit := ConfigPath("/flag.json", getenv); p != "/flag.json" || !explicit {
		t.Errorf("flag %s", p)
	}
	if s := StateDir(getenv); s != "/home/u/.local/state/followup" {
		t.Errorf("state %s", s)
	}
	vars["XDG_STATE_HOME"] = "/st"
	if s := StateDir(getenv); s != "/st/followup" {
		t.Errorf("state %s", s)
	}

	missing := filepath.Join(dir, "none.json")
	if c := Load(missing, false, env(nil)); len(c.Problems) != 0 || len(c.Servers) != 0 {
		t.Errorf("a missing default file: %+v", c)
	}
	if c := Load(missing, true, env(nil)); len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "no such file") {
		t.Errorf("a missing named file: %+v", c)
	}
	if c := Load(dir, true, env(nil)); len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "not a regular file") {
		t.Errorf("a directory: %+v", c)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, maxConfigBytes+10), 0o600); err != nil {
		t.Fatal(err)
	}
	if c := Load(big, true, env(nil)); len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "more than 8 MiB") {
		t.Errorf("a big file: %+v", c)
	}
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	cases := []struct{ server, tool, want string }{
		{"everything", "echo", "mcp__everything__echo"},
		{"github", "create-issue", "mcp__github__create-issue"},
		{"my.server", "get file", "mcp__my_server__get_file_89d822c6"}, // docs/mcp.md's example
	}
	for _, c := range cases {
		if got := ToolName(c.server, c.tool); got != c.want {
			t.Errorf("ToolName(%q, %q) = %q", c.server, c.tool, got)
		}
	}
	seen := map[string]string{}
	for _, pair := range [][2]string{{"a", "b.c"}, {"a", "b_c"}, {"a", "b c"}, {"my server", "ünïcode"}, {"s", long}, {"s", long + "y"}, {long, "t"}} {
		name := ToolName(pair[0], pair[1])
		if len(name) > maxToolName || sanitize(name) != name || name == "" {
			t.Errorf("ToolName%v = %q is not a provider name", pair, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("ToolName%v = %q, the same as for %s", pair, name, other)
		}
		seen[name] = pair[0] + "/" + pair[1]
		if ToolName(pair[0], pair[1]) != name {
			t.Errorf("ToolName%v is not stable", pair)
		}
	}
}

func TestModelSchema(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, `{"type":"object","properties":{}}`},
		{"nonsense", `{"type":"object","properties":{}}`},
		{map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}, `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{map[string]any{"type": "object", "required": []any{"a"}}, `{"required":["a"],"type":"object"}`},
	}
	for _, c := range cases {
		if got := string(modelSchema(c.in)); got != c.want {
			t.Errorf("modelSchema(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestLoadFor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {"s": {"command": "srv", "env": {"T": "${FOLLOWUP_TEST_TOKEN}"}}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FOLLOWUP_TEST_TOKEN", "tok")
	t.Setenv(EnvConfig, path)
	c := LoadFor("")
	if c.Path != path || len(c.Servers) != 1 || c.Servers[0].Env["T"] != "tok" || len(c.Problems) != 0 {
		t.Fatalf("%+v", c)
	}
	if c := LoadFor(filepath.Join(dir, "other.json")); len(c.Problems) != 1 {
		t.Fatalf("a named file that is missing: %+v", c)
	}
}

// With HOME empty or relative (a cron job, a service), the default
// locations are the password file's home, never relative to the working
// directory; a relative XDG directory is ignored too.
func TestDefaultPathsAreNeverRelative(t *testing.T) {
	for _, h := range []string{"", "rel/home", "."} {
		getenv := func(k string) string {
			switch k {
			case "HOME":
				return h
			case "XDG_STATE_HOME", "XDG_CONFIG_HOME":
				return "rel"
			}
			return ""
		}
		if p, explicit := ConfigPath("", getenv); explicit || p != "" && !filepath.IsAbs(p) {
			t.Errorf("HOME=%q: config %q (explicit %v)", h, p, explicit)
		}
		if s := StateDir(getenv); !filepath.IsAbs(s) {
			t.Errorf("HOME=%q: state dir %q", h, s)
		}
	}
	if cfg := Load("", false, env(nil)); len(cfg.Problems) != 0 || len(cfg.Servers) != 0 {
		t.Errorf("no default location: %+v", cfg)
	}
}

// TestFIFOConfigIsRefused: a FIFO as the configuration (named or at the default path)
// is refused as not a regular file at once, not waited on.
func TestFIFOConfigIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, explicit := range []bool{true, false} {
		done := make(chan Config, 1)
		go func() { done <- Load(path, explicit, os.LookupEnv) }()
		select {
		case cfg := <-done:
			if len(cfg.Problems) != 1 || !strings.Contains(cfg.Problems[0].Error(), "not a regular file") {
				t.Errorf("explicit=%v: %+v", explicit, cfg)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("explicit=%v: loading a FIFO blocks", explicit)
		}
	}
}

// TestServerNamesNameOneServer: a server's name with the separator in it, or ending in
// "_", is refused, so that mcp__<server>__<tool> names one server.
func TestServerNamesNameOneServer(t *testing.T) {
	doc := `{"mcpServers":{"a":{"command":"x"},"a__b":{"command":"x"},"c_":{"command":"x"},"d_e":{"command":"x"}}}`
	servers, problems := Parse("mcp.json", []byte(doc), env(nil))
	if len(servers) != 2 || servers[0].Name != "a" || servers[1].Name != "d_e" || len(problems) != 2 ||
		problems[0].Pointer != "/mcpServers/a__b" || !strings.Contains(problems[0].Reason, `may not contain "__"`) ||
		problems[1].Pointer != "/mcpServers/c_" {
		t.Errorf("%+v %+v", servers, problems)
	}
}
