package chat

import (
	"context"
	"encoding/json"

	"followup/agent"
	"followup/forms"
	"followup/store"
)

// inputTools adapts the service to the agent's input tools. Each tool call
// is a command whose id is derived from the run and tool call, so a call
// replayed after a crash returns its first receipt.
type inputTools struct{ s *Service }

var _ agent.InputHost = inputTools{}

func toolCommandID(cc agent.CallContext) string { return "tool:" + cc.RunID + ":" + cc.ToolCallID }

func result(v any, err error) json.RawMessage {
	if err != nil {
		return ErrorJSON(err)
	}
	return OKJSON(v)
}

// requestArg is the arguments of a tool that names one request.
type requestArg struct {
	RequestID string `json:"requestId"`
}

type idArgs struct {
	RequestID string         `json:"requestId"`
	Digest    string         `json:"digest"`
	Values    map[string]any `json:"values"`
}

func (t inputTools) Capabilities(ctx context.Context, cc agent.CallContext, _ json.RawMessage) json.RawMessage {
	return result(t.s.Capabilities(ctx))
}

func (t inputTools) List(ctx context.Context, cc agent.CallContext, _ json.RawMessage) json.RawMessage {
	return listResult(t.s.Requests(ctx, cc.ChatID))
}

// listItem is one request as input_list shows it.
type listItem struct {
	ID           string        `json:"id"`
	RequestKey   string        `json:"requestKey"`
	State        RequestState  `json:"state"`
	ClosedReason string        `json:"closedReason,omitempty"`
	Title        string        `json:"title"`
	Digest       string        `json:"digest"`
	Fields       []forms.Field `json:"fields"`
	Answered     bool          `json:"answered"`
}

// listResult is input_list's result: vs as listItems.
func listResult(vs []RequestView, err error) json.RawMessage {
	if err != nil {
		return ErrorJSON(err)
	}
	items := []listItem{}
	for _, v := range vs {
		items = append(items, listItem{v.ID, v.RequestKey, v.State, v.ClosedReason, v.Title, v.Digest, v.Fields, v.Answer != nil})
	}
	return OKJSON(map[string]any{"requests": items})
}

func (t inputTools) Request(ctx context.Context, cc agent.CallContext, args json.RawMessage) json.RawMessage {
	return result(t.s.OpenRequest(ctx, cc.RunID, cc.ToolCallID, args))
}

func (t inputTools) ReadAnswer(ctx context.Context, cc agent.CallContext, args json.RawMessage) json.RawMessage {
	a, err := chatArgs[requestArg](t.s, ctx, cc, args, true)
	if err != nil {
		return ErrorJSON(err)
	}
	v, err := t.s.Request(ctx, a.RequestID)
	if err != nil {
		return ErrorJSON(err)
	}
	return OKJSON(answerOf(v))
}

// answerOf is input_read_answer's result: the state and the confirmed
// answer only — never a draft, never a partial.
func answerOf(v RequestView) map[string]any {
	var answer any
	if v.State == store.ReqAnswered && v.Answer != nil {
		answer = map[string]any{"values": v.Answer.Values, "origins": v.Answer.Origins}
	}
	out := map[string]any{"requestId": v.ID, "state": v.State, "closedReason": v.ClosedReason, "answer": answer}
	if v.Origin != nil {
		out["origin"] = v.Origin
	}
	return out
}

func (t inputTools) Cancel(ctx context.Context, cc agent.CallContext, args json.RawMessage) json.RawMessage {
	a, err := chatArgs[requestArg](t.s, ctx, cc, args, true)
	if err != nil {
		return ErrorJSON(err)
	}
	return result(t.s.cancel(ctx, a.RequestID, toolCommandID(cc), true))
}

func (t inputTools) Replace(ctx context.Context, cc agent.CallContext, args json.RawMessage) json.RawMessage {
	in, err := chatArgs[ReplaceInput](t.s, ctx, cc, args, true)
	if err != nil {
		return ErrorJSON(err)
	}
	return result(t.s.Replace(ctx, in, toolCommandID(cc)))
}

func (t inputTools) Resolve(ctx context.Context, cc agent.CallContext, args json.RawMessage) json.RawMessage {
	a, err := chatArgs[idArgs](t.s, ctx, cc, args, false)
	if err != nil {
		return ErrorJSON(err)
	}
	return result(t.s.Resolve(ctx, a.RequestID, a.Digest, a.Values, toolCommandID(cc)))
}

// chatArgs decodes the arguments of a tool that names a request of the
// agent's chat: one of another chat is NOT_FOUND, as an agent's tools
// reach only the questions of the chat they work in. asker marks the tools
// that read or change a request as its asker: an MCP server's question is
// the server's and the user's — the agent may propose values for it
// (input_resolve), never read, change or cancel it (a cancel would tell the
// server the user declined).
func chatArgs[A interface{ target() string }](s *Service, ctx context.Context, cc agent.CallContext, raw json.RawMessage, asker bool) (A, error) {
	var a A
	if err := DecodeArgs(raw, &a); err != nil {
		return a, err
	}
	id := a.target()
	r, err := s.store.GetRequest(ctx, s.reader(), id)
	switch {
	case err != nil || r.ChatID != cc.ChatID:
		return a, errorf(CodeNotFound, "no request with id %q in this chat", id)
	case asker && r.OwnerKind == store.OwnerMCPServer:
		return a, errorf(CodeNotFound, "request %q is a question of MCP server %s: only the user answers it (input_resolve may propose values)",
			id, r.OwnerName)
	}
	return a, nil
}

func (a requestArg) target() string   { return a.RequestID }
func (a idArgs) target() string       { return a.RequestID }
func (a ReplaceInput) target() string { return a.RequestID }
