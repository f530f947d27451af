package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func complete(t *testing.T, h []Message) Message {
	t.Helper()
	var streamed strings.Builder
	resp, err := Offline{}.Complete(context.Background(), Request{Messages: h, OnText: func(d string) { streamed.WriteString(d) }})
	if err != nil {
		t.Fatal(err)
	}
	if streamed.String() != resp.Message.Content {
		t.Fatalf("streamed %q, message %q", streamed.String(), resp.Message.Content)
	}
	return resp.Message
}

func TestOfflineAsksPerDesignTable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		say, key, title string
		fields          []string
	}{
		{"Check deployment", "deploy-environment", "Choose an environment", []string{"environment"}},
		{"plan a TRIP please", "travel-plan", "Plan the trip", []string{"destination", "start", "travelers", "budget", "transport", "interests", "notes"}},
		{"I want to travel", "travel-plan", "Plan the trip", nil},
		{"write a poem", "task-details", "What should I work on?", []string{"details"}},
	}
	for _, c := range cases {
		msg := complete(t, []Message{{Role: RoleUser, Content: c.say}})
		if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "input_request" {
			t.Fatalf("%q: %+v", c.say, msg)
		}
		var args struct {
			RequestKey string `json:"requestKey"`
			Source     struct {
				Definition struct {
					Title  string `json:"title"`
					Fields []struct {
						Name string `json:"name"`
					} `json:"fields"`
				} `json:"definition"`
			} `json:"source"`
		}
		json.Unmarshal(msg.ToolCalls[0].Arguments, &args)
		if args.RequestKey != c.key || args.Source.Definition.Title != c.title {
			t.Errorf("%q: key %q title %q", c.say, args.RequestKey, args.Source.Definition.Title)
		}
		if c.fields != nil {
			var got []string
			for _, f := range args.Source.Definition.Fields {
				got = append(got, f.Name)
			}
			if strings.Join(got, ",") != strings.Join(c.fields, ",") {
				t.Errorf("%q: fields %v", c.say, got)
			}
		}
	}
}

// deployAsked is a history in which the deploy request is pending.
func deployAsked(t *testing.T) []Message {
	first := complete(t, []Message{{Role: RoleUser, Content: "deploy it"}})
	return []Message{
		{Role: RoleUser, Content: "deploy it"},
		first,
		{Role: RoleTool, ToolCallID: first.ToolCalls[0].ID, Content: `{"ok":true,"requestId":"rq_1","digest":"d1","state":"pending"}`},
	}
}

func TestOfflineFinishesWithTheChoice(t *testing.T) {
	t.Parallel()
	h := append(deployAsked(t), Message{Role: RoleUser, Content: `{"status":"input_received","requestId":"rq_1","values":{"environment":"staging"}}`})
	msg := complete(t, h)
	if len(msg.ToolCalls) != 0 || !strings.Contains(msg.Content, "staging") {
		t.Fatalf("%+v", msg)
	}
}

func TestOfflineGoesOnAfterCancel(t *testing.T) {
	t.Parallel()
	h := append(deployAsked(t), Message{Role: RoleUser, Content: `{"status":"input_cancelled","requestId":"rq_1"}`})
	if msg := complete(t, h); len(msg.ToolCalls) != 0 || !strings.Contains(msg.Content, "without that detail") {
		t.Fatalf("%+v", msg)
	}
}

func TestOfflineProposesFromChat(t *testing.T) {
	t.Parallel()
	for _, say := range []string{"use staging", "environment: staging", "Staging, please"} {
		msg := complete(t, append(deployAsked(t), Message{Role: RoleUser, Content: say}))
		if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "input_resolve" {
			t.Fatalf("%q: %+v", say, msg)
		}
		var args struct {
			RequestID string         `json:"requestId"`
			Digest    string         `json:"digest"`
			Values    map[string]any `json:"values"`
		}
		json.Unmarshal(msg.ToolCalls[0].Arguments, &args)
		if args.RequestID != "rq_1" || args.Digest != "d1" || args.Values["environment"] != "staging" {
			t.Fatalf("%q: %+v", say, args)
		}
	}
	// A message that names nothing does not fill anything.
	msg := complete(t, append(deployAsked(t), Message{Role: RoleUser, Content: "what are my options?"}))
	if len(msg.ToolCalls) != 0 {
		t.Fatalf("%+v", msg)
	}
}

func TestOfflineIsDeterministic(t *testing.T) {
	t.Parallel()
	a, b := complete(t, deployAsked(t)[:1]), complete(t, deployAsked(t)[:1])
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("%s != %s", ja, jb)
	}
}

func TestOfflineGoesOnAfterExpiry(t *testing.T) {
	t.Parallel()
	h := append(deployAsked(t), Message{Role: RoleUser, Content: `{"status":"input_expired","requestId":"rq_1","reason":"deadline"}`})
	if msg := complete(t, h); len(msg.ToolCalls) != 0 || !strings.Contains(msg.Content, "without that detail") {
		t.Fatalf("%+v", msg)
	}
}

func TestOfflineAsksAnIndependentTaskToo(t *testing.T) {
	t.Parallel()
	msg := complete(t, append(deployAsked(t), Message{Role: RoleUser, Content: "and plan a trip"}))
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "input_request" || !strings.Contains(string(msg.ToolCalls[0].Arguments), "travel-plan") {
		t.Fatalf("%+v", msg)
	}
	// The same task again asks nothing new.
	again := complete(t, append(deployAsked(t), Message{Role: RoleUser, Content: "deploy it now"}))
	if len(again.ToolCalls) != 0 {
		t.Fatalf("%+v", again)
	}
}

// bothAsked is a history with the deploy question and then the trip
// question open in one run.
func bothAsked(t *testing.T) []Message {
	h := deployAsked(t)
	h = append(h, Message{Role: RoleUser, Content: "and plan a trip"})
	second := complete(t, h)
	if len(second.ToolCalls) != 1 || second.ToolCalls[0].Name != "input_request" {
		t.Fatalf("no second question: %+v", second)
	}
	return append(h, second, Message{Role: RoleTool, ToolCallID: second.ToolCalls[0].ID,
		Content: `{"ok":true,"requestId":"rq_2","digest":"d2","state":"pending"}`})
}

// With two questions open, a message naming an option of the older one is
// a proposal for it; cancelling one says the other is still needed.
func TestOfflineWithTwoQuestionsOpen(t *testing.T) {
	t.Parallel()
	msg := complete(t, append(bothAsked(t), Message{Role: RoleUser, Content: "use staging"}))
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "input_resolve" || !strings.Contains(string(msg.ToolCalls[0].Arguments), `"rq_1"`) {
		t.Fatalf("no proposal for the deploy question: %+v", msg)
	}
	msg = complete(t, append(bothAsked(t), Message{Role: RoleUser, Content: `{"status":"input_cancelled","requestId":"rq_1"}`}))
	if strings.Contains(msg.Content, "Done") || !strings.Contains(msg.Content, "Plan the trip") {
		t.Fatalf("after one of two was cancelled: %q", msg.Content)
	}
	msg = complete(t, append(deployAsked(t), Message{Role: RoleUser, Content: `{"status":"input_cancelled","requestId":"rq_1"}`}))
	if !strings.Contains(msg.Content, "Done") {
		t.Fatalf("after the only question was cancelled: %q", msg.Content)
	}
}

// Messages sent before the agent answered are read together: the task
// named in the first is not lost to the second.
func TestOfflineReadsMessagesSentTogether(t *testing.T) {
	t.Parallel()
	msg := complete(t, []Message{{Role: RoleUser, Content: "Check deployment"}, {Role: RoleUser, Content: "quickly please"}})
	if len(msg.ToolCalls) != 1 || !strings.Contains(string(msg.ToolCalls[0].Arguments), "deploy-environment") {
		t.Fatalf("the deploy task was lost: %+v", msg)
	}
}

// A message the user sent during an MCP call comes after the call's
// result: the demo agent still tells the result, then answers the message.
func TestOfflineTellsACallsResultBeforeAMessageSentDuringIt(t *testing.T) {
	t.Parallel()
	h := []Message{
		{Role: RoleUser, Content: `call everything.echo {"message": "hi"}`},
		{Role: RoleAssistant, Content: "Calling echo on everything.", ToolCalls: []ToolCall{{ID: "c1", Name: "mcp__everything__echo", Arguments: json.RawMessage(`{"message":"hi"}`)}}},
		{Role: RoleTool, ToolCallID: "c1", ToolName: "mcp__everything__echo", Content: `{"status":"ok","tool":"mcp__everything__echo","text":"Echo: hi"}`},
		{Role: RoleUser, Content: "call everything.echo {\"message\": \"again\"}"},
	}
	msg := complete(t, h)
	if !strings.HasPrefix(msg.Content, "Echo: hi\n\n") || len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Name != "mcp__everything__echo" {
		t.Fatalf("turn = %+v", msg)
	}
	// Without a message after it, the result is the turn, said once.
	if msg := complete(t, h[:3]); msg.Content != "Echo: hi" {
		t.Fatalf("turn = %+v", msg)
	}
}

// TestOfflineSaysWhatItCanDo: "what can you do?" gets the guide to every
// demo, not a generic form, also while a question waits.
func TestOfflineSaysWhatItCanDo(t *testing.T) {
	t.Parallel()
	for _, say := range []string{"what can you do?", "Help", "What can you do"} {
		msg := complete(t, []Message{{Role: RoleUser, Content: say}})
		if len(msg.ToolCalls) != 0 {
			t.Fatalf("%q asked a form: %+v", say, msg.ToolCalls)
		}
		for _, demo := range []string{"Check deployment", "Plan a trip", "propose", "side by side", "call SERVER.TOOL", "followup mcp serve"} {
			if !strings.Contains(msg.Content, demo) {
				t.Errorf("%q: the guide does not name %q:\n%s", say, demo, msg.Content)
			}
		}
	}
	for _, task := range []string{"help me deploy", "help me out"} {
		if msg := complete(t, []Message{{Role: RoleUser, Content: task}}); len(msg.ToolCalls) != 1 {
			t.Fatalf("%q is a task: %+v", task, msg)
		}
	}
}

// TestOfflineSampledReplyCountsInWords: the demo model's answer to a
// server's sampling request names its counts with nouns that agree.
func TestOfflineSampledReplyCountsInWords(t *testing.T) {
	t.Parallel()
	one := sampledReply([]Message{{Role: RoleUser, Content: "rivers"}})
	two := sampledReply([]Message{{Role: RoleUser, Content: "hi"}, {Role: RoleUser, Content: "name three rivers"}})
	if !strings.Contains(one, "I read 1 message;") || !strings.Contains(one, "has 1 word and") ||
		!strings.Contains(two, "I read 2 messages;") || !strings.Contains(two, "has 3 words and") {
		t.Fatalf("replies:\n%s\n%s", one, two)
	}
}

// The trip's suggested destination is the place the message names, when it
// names one ("to Lisbon"); else the demo's own. The demo's table stays as
// it is for the next message.
func TestOfflineSuggestsThePlaceNamed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ say, want string }{
		{"Plan a trip to Lisbon", "Lisbon"},
		{"plan a trip in Kyoto, please", "Kyoto"},
		{"plan a trip to see friends", "Shanghai"},
		{"Plan a trip", "Shanghai"},
	} {
		msg := complete(t, []Message{{Role: RoleUser, Content: c.say}})
		var args struct {
			Prefill map[string]any `json:"prefill"`
		}
		if len(msg.ToolCalls) != 1 || json.Unmarshal(msg.ToolCalls[0].Arguments, &args) != nil || args.Prefill["destination"] != c.want {
			t.Errorf("%q: prefill %v, want destination %q", c.say, args.Prefill, c.want)
		}
	}
}
