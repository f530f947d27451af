package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation modes.
const (
	ModeForm = "form"
	ModeURL  = "url"
)

// Actions of an elicitation reply (docs/mcp.md's table says which user act sends which).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Origin names the tool call a request belongs to, as the caller of Call gave it.
type Origin struct {
	ChatID     string `json:"chatId,omitempty"`
	RunID      string `json:"runId,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
}

// Elicitation is a server's question: a form (RequestedSchema) or a URL to visit.
type Elicitation struct {
	Server          string          `json:"server"`
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
	// Tool is the server's name of the tool whose call asked, and Origin that call; both
	// are empty for a request made outside any call of followup's.
	Tool   string `json:"tool,omitempty"`
	Origin Origin `json:"origin"`
}

// Reply is the user's answer to an Elicitation. Content is only for accept of a form.
type Reply struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

// Causes of the end of an Elicitor's context (context.Cause).
var (
	// ErrWithdrawn: the server cancelled its request, or ended the call it
	// asked during without waiting for the answer.
	ErrWithdrawn = errors.New("the server withdrew its question")
	// ErrConnectionEnded: the connection to the server ended (the server
	// went away, or followup is closing it).
	ErrConnectionEnded = errors.New("the connection to the server ended")
)

// InvalidParams is the error an Elicitor returns to refuse a request it cannot show
// (a requestedSchema that is not a flat form): the server receives -32602 with msg.
func InvalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// Elicitor puts a server's elicitation/create in front of the user (chat implements it).
//
// Elicit blocks until the user decides. ctx ends when the server withdraws the request
// or its connection ends: the implementation then closes the form as withdrawn (or
// disconnected) and returns ctx.Err(). It must never return decline unless a person chose
// it. For a form, accepted content is validated against the schema after Elicit returns
// and sent as it is: a field left out stays out, whatever default the schema has.
type Elicitor interface {
	Elicit(ctx context.Context, e Elicitation) (Reply, error)
}

// answerElicitations is the receiving middleware of a server's client: followup answers
// elicitation/create itself instead of passing it to the SDK, which, after an accept,
// fills the schema's defaults into the content — values the user never confirmed (a
// field they cleared would reach the server with its default). The SDK's own checks of
// the request are made in elicitation, and of the reply in result.
func (s *server) answerElicitations(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if er, ok := req.(*sdk.ElicitRequest); ok && method == "elicitation/create" && s.m.opts.Elicitor != nil {
			return s.elicitHandler(ctx, er)
		}
		if method == "roots/list" && len(s.m.roots) == 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "followup declares no roots"}
		}
		return next(ctx, method, req)
	}
}

// elicitHandler answers a server's elicitation/create: it hands the request, named
// with the call in flight, to the Elicitor.
func (s *server) elicitHandler(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	e, err := s.elicitation(req.Params)
	if err != nil {
		return nil, err
	}
	ectx, done, err := s.during(ctx, req.Session, &e.Tool, &e.Origin)
	if err != nil {
		return nil, err
	}
	defer done()
	reply, err := s.m.opts.Elicitor.Elicit(ectx, e)
	if err != nil {
		return nil, err
	}
	return reply.result(e)
}

// during prepares the handling of a server's request that waits for the user: it
// names the request with the call in flight on that server (calls are serialized per
// server because the SDK gives the handler a context unrelated to the call) and
// counts it in (admit). The context returned ends when the server cancels the
// request, when the call ends, and when the connection closes — closing the manager
// ends it too, so no question outlives its connection; its cause says which
// (ErrWithdrawn, ErrConnectionEnded). done releases it all.
func (s *server) during(ctx context.Context, cs *sdk.ClientSession, tool *string, origin *Origin) (context.Context, func(), error) {
	var callDone <-chan struct{}
	*tool, *origin, callDone = s.inFlight()
	release, err := s.admit(*origin)
	if err != nil {
		return nil, nil, err
	}
	ectx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	stopLife := context.AfterFunc(s.life, func() { cancel(ErrConnectionEnded) })
	done := s.doneOf(cs)
	s.mu.Lock()
	broke := s.sessionBroke
	if done == nil || done != s.sessionDone {
		broke = nil
	}
	s.mu.Unlock()
	stopReq := context.AfterFunc(ctx, func() {
		// A killed server's session is seen ended only after this
		// handler returns; its call fails first (broke).
		select {
		case <-done:
			cancel(ErrConnectionEnded)
		case <-broke:
			cancel(ErrConnectionEnded)
		case <-time.After(endedWithin):
			cancel(ErrWithdrawn)
		}
	})
	// A question outlives the call it belongs to only by the server's
	// mistake: the call has its result, so the question is withdrawn.
	if callDone != nil {
		go func() {
			select {
			case <-callDone:
				// A call that ended because its server went away
				// leaves the question disconnected, not withdrawn.
				select {
				case <-done:
					cancel(ErrConnectionEnded)
				case <-broke:
					cancel(ErrConnectionEnded)
				default:
					cancel(ErrWithdrawn)
				}
			case <-ectx.Done():
			}
		}()
	}
	return ectx, func() {
		stopReq()
		stopLife()
		cancel(nil)
		release()
	}, nil
}

// Bounds on the questions open at once (docs/mcp.md): beyond them the server
// hears -32602 in words at once, and nothing reaches the user or the database.
const (
	maxOpenPerCall = 16
	maxOpenPerRun  = 32
)

// admit counts a question of the call in flight (and of its run) in, or
// refuses it past the bounds; release counts it out.
func (s *server) admit(o Origin) (release func(), err error) {
	m := s.m
	s.flightMu.Lock()
	defer s.flightMu.Unlock()
	m.openMu.Lock()
	defer m.openMu.Unlock()
	switch {
	case s.open >= maxOpenPerCall:
		return nil, InvalidParams(fmt.Sprintf("too many questions at once: %d of this call's wait for the user's answer; ask again once one is answered", maxOpenPerCall))
	case o.RunID != "" && m.open[o.RunID] >= maxOpenPerRun:
		return nil, InvalidParams(fmt.Sprintf("too many questions at once: %d of this task's wait for the user's answer; ask again once one is answered", maxOpenPerRun))
	}
	s.open++
	m.open[o.RunID]++
	return func() {
		s.flightMu.Lock()
		defer s.flightMu.Unlock()
		m.openMu.Lock()
		defer m.openMu.Unlock()
		s.open--
		if m.open[o.RunID]--; m.open[o.RunID] == 0 {
			delete(m.open, o.RunID)
		}
	}, nil
}

// endedWithin is how long after a request's context ends the session must have ended
// for the end to count as the connection's rather than the server's withdrawal.
const endedWithin = 150 * time.Millisecond

// doneOf is closed when cs has ended (nil: never, for a session not this server's).
func (s *server) doneOf(cs *sdk.ClientSession) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cs != nil && cs == s.session {
		return s.sessionDone
	}
	return nil
}

// elicitation converts the SDK's params, refusing a mode followup did not declare and a
// request that mixes the modes.
func (s *server) elicitation(p *sdk.ElicitParams) (Elicitation, error) {
	if p == nil {
		return Elicitation{}, InvalidParams("elicitation/create has no params")
	}
	mode := p.Mode
	if mode == "" {
		mode = ModeForm
		if p.URL != "" || p.ElicitationID != "" {
			mode = ModeURL
		}
	}
	if s.m.opts.Elicitor == nil || (mode != ModeForm && mode != ModeURL) {
		return Elicitation{}, InvalidParams(fmt.Sprintf("elicitation mode %q is not supported by this client", mode))
	}
	switch {
	case mode == ModeForm && p.URL != "":
		return Elicitation{}, InvalidParams("a form elicitation must not have a url")
	case mode == ModeURL && p.URL == "":
		return Elicitation{}, InvalidParams("a URL elicitation must have a url")
	case mode == ModeURL && p.RequestedSchema != nil:
		return Elicitation{}, InvalidParams("a URL elicitation must not have a requestedSchema")
	}
	e := Elicitation{Server: s.cfg.Name, Mode: mode, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
	if p.RequestedSchema != nil {
		raw, err := json.Marshal(p.RequestedSchema)
		if err != nil {
			return Elicitation{}, InvalidParams("requestedSchema: " + err.Error())
		}
		e.RequestedSchema = s.orders.apply(raw)
	}
	return e, nil
}

// result is the reply as the server receives it. Accepted form content is checked
// against the requested schema and sent exactly as confirmed (Prepare).
func (r Reply) result(e Elicitation) (*sdk.ElicitResult, error) {
	switch r.Action {
	case ActionAccept:
		if e.Mode == ModeURL {
			return &sdk.ElicitResult{Action: r.Action}, nil
		}
		content, err := Prepare(e.RequestedSchema, r.Content)
		if err != nil {
			return nil, InvalidParams("elicitation reply: " + err.Error())
		}
		return &sdk.ElicitResult{Action: r.Action, Content: content}, nil
	case ActionDecline, ActionCancel:
		return &sdk.ElicitResult{Action: r.Action}, nil
	}
	return nil, fmt.Errorf("elicitation reply action %q is not accept, decline or cancel", r.Action)
}
