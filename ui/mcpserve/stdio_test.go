package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// A stdio session outlives lines that are no JSON-RPC message — not JSON,
// an empty batch, invalid UTF-8, no message at all: each gets its JSON-RPC
// error, and the next request is served.
func TestStdioSurvivesMalformedLines(t *testing.T) {
	srvIn, toSrv := io.Pipe()
	fromSrv, srvOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- ServeStdio(ctx, newFakeInbox(), Options{Version: "test"}, srvIn, srvOut) }()
	defer func() {
		cancel()
		toSrv.Close()
		fromSrv.Close()
		<-served
	}()
	lines := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(fromSrv)
		for sc.Scan() {
			var m map[string]any
			json.Unmarshal(sc.Bytes(), &m)
			lines <- m
		}
	}()
	next := func() map[string]any {
		select {
		case m := <-lines:
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("no answer from the server")
			return nil
		}
	}
	send := func(s string) { io.WriteString(toSrv, s+"\n") }

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if m := next(); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for bad, code := range map[string]float64{"hello": -32700, "[]": -32600, "{\"a\":\"\xff\"}": -32700, "42": -32600} {
		send(bad)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e["code"] != code || m["id"] != nil {
			t.Errorf("%q: %v, want error %v", bad, m, code)
		}
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if m := next(); m["id"] != 2.0 || !strings.Contains(mustMarshal(m), "input_request") {
		t.Fatalf("tools/list after the bad lines: %v", m)
	}
}
