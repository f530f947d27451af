package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"followup/agent"
	"followup/chat"
)

// serveTool is one tool of the server: what the client lists, and how a
// call reaches the session.
type serveTool struct {
	tool *mcp.Tool
	run  func(in Session, ctx context.Context, args json.RawMessage) json.RawMessage
}

// served binds each catalogue tool serve offers to the Session method it
// calls, with its title (what a client shows a person when it asks to
// allow a call) and a note for an external agent on what its calls mean
// here: the user answers in another terminal, maybe minutes later, and the
// agent fetches the answer with input_wait (the agent catalogue's notes
// are about followup's own runs, which pause instead).
var served = map[string]struct {
	title, note string
	readOnly    bool
	run         func(Session, context.Context, json.RawMessage) json.RawMessage
}{
	"input_capabilities": {"What a followup form may contain", "", true, Session.Capabilities},
	"input_list":         {"List my questions to the user", "It lists the requests of this MCP session.", true, Session.List},
	"input_request": {"Ask the user (followup form)", "The question appears in the user's followup inbox, a terminal screen where they may take minutes to answer. Ask well: one request with every field you need (not one per field), good guesses in prefill, what you already know in supplied. Then call input_wait with the requestId to receive the answer.",
		false, Session.Request},
	"input_read_answer": {"Read the user's answer", "It does not wait: call input_wait to wait for the answer.", true, Session.ReadAnswer},
	"input_cancel":      {"Withdraw a question", "The user sees the question cancelled.", false, Session.Cancel},
}

// serveTools is the tool list: the catalogue's tools that serve offers
// (docs/input-requests.md: all but input_replace and input_resolve), with their own
// schemas, then input_wait.
func serveTools() []serveTool {
	var out []serveTool
	for _, t := range agent.InputTools() {
		if !t.Serve {
			continue
		}
		bind, ok := served[t.Name]
		if !ok {
			panic(fmt.Sprintf("mcpserve: the catalogue serves %s, which has no handler here", t.Name))
		}
		desc := t.Description
		if bind.note != "" {
			desc += " " + bind.note
		}
		out = append(out, serveTool{
			tool: &mcp.Tool{Name: t.Name, Title: bind.title, Description: desc, InputSchema: t.Parameters, Annotations: annotations(bind.readOnly)},
			run:  bind.run,
		})
	}
	return append(out, serveTool{
		tool: &mcp.Tool{Name: "input_wait", Title: "Wait for the user's answer", Description: waitDescription, InputSchema: json.RawMessage(waitParams),
			Annotations: annotations(true)},
		run: wait,
	})
}

// annotations tell clients which calls change nothing (they may call them
// without asking the user) and that every tool stays inside followup.
func annotations(readOnly bool) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{ReadOnlyHint: readOnly, OpenWorldHint: new(false)}
	if !readOnly {
		// A retry with the same requestKey, or of the same cancel, returns
		// the first result. Withdrawing a question destroys nothing: the
		// question and what the user typed stay readable.
		a.IdempotentHint, a.DestructiveHint = true, new(false)
	}
	return a
}

// Bounds of input_wait (docs/mcp.md): clients time a tool call out at 60 s,
// so one wait returns well before that and the agent calls again.
const (
	maxWait     = 50 * time.Second
	defaultWait = 30 * time.Second
)

const waitDescription = "Wait for the user's answer to one of your requests. It returns as soon as the user confirms (state answered, with answer.values and the input_received result), cancels (state cancelled) or the request expires (state expired, with closedReason). " +
	"If the user has not answered within timeoutSeconds (default 30; more than 50 waits 50, because clients end a tool call after 60 seconds) it returns state pending: call input_wait again. The user may take many minutes; keep waiting unless your task can go on without the answer. Never answer for the user."

const waitParams = `{"type":"object","required":["requestId"],"properties":{
 "requestId":{"type":"string","description":"the requestId input_request returned"},
 "timeoutSeconds":{"type":"number","minimum":0,"default":30,"description":"how long to wait, in seconds, before returning state pending; more than 50 waits 50"}}}`

// wait is input_wait: it checks its own arguments (the bound is this
// server's) and leaves the waiting to the session.
func wait(in Session, ctx context.Context, args json.RawMessage) json.RawMessage {
	var a struct {
		RequestID      string   `json:"requestId"`
		TimeoutSeconds *float64 `json:"timeoutSeconds" want:"a number of seconds"`
	}
	if err := chat.DecodeArgs(args, &a); err != nil {
		return chat.ErrorJSON(err)
	}
	if a.RequestID == "" {
		return chat.ErrorJSON(&chat.Error{Code: chat.CodeInvalidArgument, Message: "requestId is required"})
	}
	timeout, clamped := defaultWait, false
	if a.TimeoutSeconds != nil {
		s := *a.TimeoutSeconds
		if math.IsNaN(s) || s < 0 {
			return chat.ErrorJSON(&chat.Error{Code: chat.CodeInvalidArgument,
				Message: fmt.Sprintf("timeoutSeconds must be a number of seconds, 0 or more (got %v)", s)})
		}
		// A model asking for a minute (or more) is not wrong, only longer
		// than a client lets one call last: it waits the most it can, and
		// the result says so.
		if clamped = s > maxWait.Seconds(); clamped {
			s = maxWait.Seconds()
		}
		timeout = time.Duration(s * float64(time.Second))
	}
	out := in.Wait(ctx, a.RequestID, timeout)
	if clamped {
		out = withWaited(out, int(maxWait.Seconds()))
	}
	return out
}

// withWaited adds to a successful wait's result how long it waited and why
// that is less than asked.
func withWaited(out json.RawMessage, seconds int) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(out, &m) != nil || string(m["ok"]) != "true" || string(m["state"]) != `"pending"` {
		return out // an answer, a cancel or an expiry needs no note about the wait
	}
	m["timeoutSeconds"], _ = json.Marshal(seconds)
	m["note"], _ = json.Marshal(fmt.Sprintf("input_wait waits at most %d seconds (clients end a tool call after 60): call it again to go on waiting", seconds))
	b, err := json.Marshal(m)
	if err != nil {
		return out
	}
	return b
}

// instructions tell the client's model what the server is for.
const instructions = "followup is the user's inbox for questions: when you need details from the user, ask with input_request — a form the user answers in the followup chat screen, in another terminal — then call input_wait until the answer arrives. " +
	"Ask once with every field you need, prefill good guesses, and put what you already know in supplied. What input_wait returns as answered is exactly what the user confirmed."
