package mcp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSecretsStayAsWritten: a ${VAR} expanded into a URL's query or a command's path is
// shown (status), logged and returned in a call's error as written — ${TOK} — never as
// its value, escaped or not.
func TestSecretsStayAsWritten(t *testing.T) {
	const secret = "s3cret-Token+/x"
	lookup := func(n string) (string, bool) { return secret, n == "TOK" }
	doc := `{"mcpServers":{
	  "remote": {"url": "http://127.0.0.1:1/mcp?token=${TOK}", "timeout": 2},
	  "local": {"command": "/nonexistent/${TOK}/server", "args": ["--key=${TOK}"], "timeout": 2}}}`
	servers, problems := Parse("mcp.json", []byte(doc), lookup)
	if len(problems) > 0 || len(servers) != 2 {
		t.Fatalf("%v %v", servers, problems)
	}
	m := newFakeManager(t, nil, servers...)
	m.Start()
	waitAll(t, m)
	st, _ := json.Marshal(m.Status())
	seen := []string{string(st)}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, s := range servers {
		_, err := m.Call(ctx, CallRequest{Server: s.Name, Tool: "x"})
		if err == nil {
			t.Fatalf("%s: a call succeeded", s.Name)
		}
		seen = append(seen, err.Error())
	}
	for _, s := range m.Status().Servers {
		log, _ := os.ReadFile(s.Log)
		seen = append(seen, string(log))
		if !strings.Contains(s.Reason, "${TOK}") {
			t.Errorf("%s: the reason does not name the variable: %s", s.Name, s.Reason)
		}
	}
	for _, text := range seen {
		if strings.Contains(text, "s3cret") {
			t.Errorf("the secret leaks: %s", text)
		}
	}
}
