package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestEverythingFormDefaultsAndValidation: the server receives exactly the content the
// user confirmed — a field left out (an optional field with a default that the user
// cleared) stays out, though the SDK would fill in the schema's default — and content
// that breaks the schema never reaches the server as an accept.
func TestEverythingFormDefaultsAndValidation(t *testing.T) {
	var content map[string]any
	el := &scriptedElicitor{reply: func(context.Context, Elicitation) (Reply, error) {
		return Reply{Action: ActionAccept, Content: content}, nil
	}}
	for _, tr := range []string{TypeStdio, TypeHTTP} {
		t.Run(tr, func(t *testing.T) {
			m := everything(t, tr, el)
			for _, c := range []map[string]any{
				{"name": "Ada"},
				// A default confirmed (the user passed the prefilled field) is sent as given.
				{"name": "Ada", "firstLine": "It was a dark and stormy night.", "integer": 42},
			} {
				content = c
				res := callEverything(t, m, "trigger-elicitation-request", `{}`)
				got, _ := json.Marshal(rawResult(t, res.Text)["content"])
				want, _ := json.Marshal(c)
				if !jsonEqual(t, got, want) {
					t.Errorf("the server received %s, want exactly %s", got, want)
				}
			}
			content = map[string]any{"name": "Ada", "integer": 500}
			res, err := m.Call(context.Background(), CallRequest{Server: "everything", Tool: "trigger-elicitation-request"})
			t.Logf("invalid accept: err=%v result=%+v", err, res)
			if err == nil && !res.IsError {
				t.Fatalf("an out-of-range integer was sent: %+v", res)
			}
			if err == nil && strings.Contains(res.Text, `"action": "accept"`) {
				t.Fatalf("the server received an accept: %s", res.Text)
			}
		})
	}
}

func TestEverythingURLElicitation(t *testing.T) {
	for _, tr := range []string{TypeStdio, TypeHTTP} {
		t.Run(tr, func(t *testing.T) {
			el := &scriptedElicitor{reply: func(context.Context, Elicitation) (Reply, error) {
				return Reply{Action: ActionAccept}, nil
			}}
			m := everything(t, tr, el)
			const url = "https://example.com/consent?step=1"

			res := callEverything(t, m, "trigger-url-elicitation", `{"url":"`+url+`","elicitationId":"e-1"}`)
			if !strings.Contains(res.Text, "User completed the URL elicitation flow") {
				t.Fatalf("request path: %q", res.Text)
			}
			asked := el.questions()
			if len(asked) != 1 || asked[0].Mode != ModeURL || asked[0].URL != url || asked[0].ElicitationID != "e-1" ||
				asked[0].RequestedSchema != nil || asked[0].Origin.ToolCallID != "call-trigger-url-elicitation" {
				t.Fatalf("asked %+v", asked)
			}

			// The error path: -32042 comes back as URLRequired; after consent the same
			// call is made again and goes through.
			args := `{"url":"` + url + `","errorPath":true}`
			res = callEverything(t, m, "trigger-url-elicitation", args)
			if len(res.URLRequired) != 1 {
				t.Fatalf("error path: %+v", res)
			}
			pre := res.URLRequired[0]
			if pre.Mode != ModeURL || pre.URL == "" || pre.ElicitationID == "" || pre.Server != "everything" ||
				pre.Tool != "trigger-url-elicitation" || pre.Origin.RunID != "r1" {
				t.Fatalf("prerequisite %+v", pre)
			}
			if n := len(el.questions()); n != 1 {
				t.Fatalf("the error path went to the Elicitor (%d questions); it is the caller's", n)
			}
			res = callEverything(t, m, "trigger-url-elicitation", args)
			if !strings.Contains(res.Text, "User completed the URL elicitation flow") {
				t.Fatalf("retry after consent: %+v", res)
			}
		})
	}
}

// A tool that needs MCP tasks (everything's simulate-research-query) is
// not offered to the model; the servers' status keeps it, saying why.
func TestEverythingTaskOnlyToolNotOffered(t *testing.T) {
	m := everything(t, TypeStdio, nil)
	const name = "mcp__everything__simulate-research-query"
	if _, ok := m.Lookup(name); ok {
		t.Fatal("the task-only tool is offered to the model")
	}
	if _, ok := m.Lookup("mcp__everything__echo"); !ok {
		t.Fatal("echo is not offered")
	}
	found := false
	for _, tool := range m.Status().Servers[0].Tools {
		switch {
		case tool.Name == name:
			found = tool.NotOffered == NeedsTasks
		case tool.NotOffered != "":
			t.Errorf("%s is not offered: %s", tool.Name, tool.NotOffered)
		}
	}
	if !found {
		t.Fatalf("the status does not list %s as needing tasks: %+v", name, m.Status().Servers[0].Tools)
	}
}
