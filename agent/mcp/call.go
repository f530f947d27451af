package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxBytes bounds a result when the caller gives no bound (docs/input-requests.md's reply size).
const DefaultMaxBytes = 65536

// CallRequest is one tool call. Server and Tool are the config key and the server's own
// tool name (what a durable step records), not the model's mcp__ name.
type CallRequest struct {
	Server    string
	Tool      string
	Arguments json.RawMessage
	// MaxBytes bounds Text plus Structured (default DefaultMaxBytes).
	MaxBytes int
	// Origin is handed with every elicitation the call causes.
	Origin Origin
}

// Result is what a call came to; exactly one of three shapes:
//
//   - a normal result: Text (and Structured), IsError passed through — a tool error is
//     the model's to handle;
//   - InputRequired (a 2026-07-28 input_required result): ask the user, then Retry with
//     the replies; it marshals to JSON, so it can be stored and retried in another process;
//   - URLRequired (a -32042 URLElicitationRequired error): show each URL for consent,
//     then Call again.
type Result struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured,omitempty"`
	IsError    bool            `json:"isError,omitempty"`
	Truncated  bool            `json:"truncated,omitempty"`
	// Images are the result's images a model may see (bounded: content.go).
	Images []Image `json:"images,omitempty"`
	// Links are the result's resource links, which the user may attach.
	Links         []Resource     `json:"resourceLinks,omitempty"`
	InputRequired *InputRequired `json:"inputRequired,omitempty"`
	URLRequired   []Elicitation  `json:"urlRequired,omitempty"`
	Duration      time.Duration  `json:"durationNs"`
}

// InputRequired is what a server needs before it completes a call: its input requests
// (by the server's ids) and the opaque state to send back unchanged.
type InputRequired struct {
	Requests map[string]Elicitation `json:"requests"`
	// Roots are ids of roots/list requests, answered with followup's roots on Retry.
	Roots        []string `json:"roots,omitempty"`
	RequestState string   `json:"requestState,omitempty"`
}

// ErrUnknownServer is a call to a server that is not configured.
var ErrUnknownServer = errors.New("no MCP server of that name is configured")

// busyRetries bounds the retries of a server that sheds load (input_required with no
// requests).
const busyRetries = 3

// Call calls a tool, starting the servers if they were not, and waiting for its server to
// finish connecting; a server whose connection ended by itself is started again first
// (restart.go). Calls to one server are made one at a time (see Elicitor). A Go error means the call could not be made or
// the server failed it at the protocol level; the caller tells the model so.
func (m *Manager) Call(ctx context.Context, req CallRequest) (Result, error) {
	return m.call(ctx, req, nil, "")
}

// Retry completes an input_required call: replies answers every request of ir by its id
// (form content is checked against the request's schema and sent as the user confirmed
// it: no default is added, as for a classic elicitation). The result may ask again.
func (m *Manager) Retry(ctx context.Context, req CallRequest, ir InputRequired, replies map[string]Reply) (Result, error) {
	responses := sdk.InputResponseMap{}
	for id, e := range ir.Requests {
		r, ok := replies[id]
		if !ok {
			return Result{}, fmt.Errorf("no reply to the server's input request %q", id)
		}
		res, err := r.result(e)
		if err != nil {
			return Result{}, err
		}
		responses[id] = res
	}
	for _, id := range ir.Roots {
		responses[id] = &sdk.ListRootsResult{Roots: append([]*sdk.Root{}, m.roots...)}
	}
	return m.call(ctx, req, responses, ir.RequestState)
}

func (m *Manager) call(ctx context.Context, req CallRequest, responses sdk.InputResponseMap, state string) (Result, error) {
	s, ok := m.byName[req.Server]
	if !ok {
		return Result{}, fmt.Errorf("%w: %q", ErrUnknownServer, req.Server)
	}
	res, err := s.call(ctx, req, responses, state)
	return res, s.cfg.Secrets.hideErr(err)
}

func (s *server) call(ctx context.Context, req CallRequest, responses sdk.InputResponseMap, state string) (Result, error) {
	m := s.m
	m.Start() // the CLI starts servers when a run first needs a tool
	select {
	case s.calls <- struct{}{}:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	defer func() { <-s.calls }()
	// With the token held no other call is in flight: the session is the
	// one this call is made on, started again if its connection had ended.
	tried := false // this call had its connection attempt (restart.go)
	cs, err := s.connection(ctx, &tried)
	if err != nil {
		return Result{}, err
	}
	done := make(chan struct{})
	token := fmt.Sprintf("followup-%d", m.calls.Add(1))
	s.setFlight(req.Tool, req.Origin, token, done)
	defer func() {
		s.setFlight("", Origin{}, "", nil)
		close(done)
	}()

	var args any = map[string]any{}
	if len(req.Arguments) > 0 && string(req.Arguments) != "null" {
		args = req.Arguments
	}
	sessionDone := s.doneOf(cs)
	params := &sdk.CallToolParams{Name: req.Tool, Arguments: args, InputResponses: responses, RequestState: state}
	params.SetProgressToken(token)
	start := time.Now()
	renewed := false // made again on a new session
	for attempt := 0; ; attempt++ {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			if urls, ok := urlRequired(s.cfg.Name, req, err); ok {
				return Result{URLRequired: urls, Duration: time.Since(start)}, nil
			}
			if errors.Is(err, sdk.ErrSessionMissing) && !tried && !renewed {
				// The server no longer knows the session (an HTTP server
				// that restarted): it refused the call unread, so the call
				// is made once more, on a new session.
				renewed = true
				s.callEnded(sessionDone, err)
				if cs, err = s.connection(ctx, &tried); err != nil {
					return Result{}, err
				}
				sessionDone = s.doneOf(cs)
				continue
			}
			return Result{}, s.callEnded(sessionDone, err)
		}
		if res.NeedsInput() && len(res.InputRequests) == 0 && attempt < busyRetries {
			// Load shedding: the server asks for nothing and wants the call again.
			select {
			case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
				continue
			case <-ctx.Done():
				return Result{}, ctx.Err()
			}
		}
		out, err := resultOf(s, req, res)
		out.Duration = time.Since(start)
		return out, err
	}
}

func (s *server) setFlight(tool string, o Origin, token string, done chan struct{}) {
	s.flightMu.Lock()
	s.flight.tool, s.flight.origin, s.flight.token, s.flight.done = tool, o, token, done
	s.flightMu.Unlock()
}

// Progress is what a server said of a call's progress (notifications/progress).
type Progress struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"` // 0: unknown
	Message  string  `json:"message,omitempty"`
}

// String is the progress as the screen and the CLI show it: "3/10 · message".
func (p Progress) String() string {
	s := strconv.FormatFloat(p.Progress, 'f', -1, 64)
	if p.Total > 0 {
		s += "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
	}
	if p.Message != "" {
		s += " · " + p.Message
	}
	return s
}

// progress hands a server's progress on the call in flight to OnProgress;
// progress on anything else (a call that ended, a token not followup's) is
// dropped.
func (s *server) progress(p *sdk.ProgressNotificationParams) {
	f := s.m.opts.OnProgress
	if f == nil || p == nil {
		return
	}
	s.flightMu.Lock()
	token, o := s.flight.token, s.flight.origin
	s.flightMu.Unlock()
	if t, ok := p.ProgressToken.(string); ok && t == token && token != "" {
		f(o, Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

// inFlight is the call in flight: its tool, its origin, and a channel
// closed when it ends (nil when none is).
func (s *server) inFlight() (string, Origin, <-chan struct{}) {
	s.flightMu.Lock()
	defer s.flightMu.Unlock()
	return s.flight.tool, s.flight.origin, s.flight.done
}

// urlRequired reads a -32042 error's URL elicitations.
func urlRequired(server string, req CallRequest, err error) ([]Elicitation, bool) {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != sdk.CodeURLElicitationRequired {
		return nil, false
	}
	var data struct {
		Elicitations []*sdk.ElicitParams `json:"elicitations"`
	}
	if len(rpcErr.Data) == 0 || json.Unmarshal(rpcErr.Data, &data) != nil || len(data.Elicitations) == 0 {
		return nil, false
	}
	var out []Elicitation
	for _, p := range data.Elicitations {
		if p == nil || p.URL == "" {
			return nil, false
		}
		out = append(out, Elicitation{Server: server, Mode: ModeURL, Message: p.Message, URL: p.URL,
			ElicitationID: p.ElicitationID, Tool: req.Tool, Origin: req.Origin})
	}
	return out, true
}
