package chat

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"followup/agent"
	"followup/agent/mcp"
	"followup/forms"
	"followup/store"
)

// The questions an MCP server asks during a tool call are input requests
// owned by that server ({"kind":"mcp_server","name":<config key>}): a form
// (source kind schema, its requestedSchema, prefilled from its defaults)
// or a URL to visit (no fields; answering it says done). Closing one is
// never delivered into the model's history: it goes to the server
// (docs/mcp.md's table), recorded as a delivery with target mcp_server —
// confirm → accept with the content, cancel → decline, anything else
// (stop, withdrawn, connection ended) → cancel, where it can still be
// sent.

// mcpContext is what an MCP server's request keeps in its context column:
// a server's request has no input_received result, so the column carries how to show
// it (buildItem lifts it into the item).
type mcpContext struct {
	Mode string `json:"mode"`
	URL  string `json:"url,omitempty"`
	Tool string `json:"tool,omitempty"`
	Live bool   `json:"live,omitempty"`
	// Agent is the path of the sub-agent whose call the server asks
	// during ("" for a task's own agent).
	Agent string `json:"agent,omitempty"`
	// Schema is the server's requestedSchema as it sent it: an accept
	// is recorded with the content the server receives, checked against
	// it (exactly what the user confirmed: no default is added).
	Schema json.RawMessage `json:"schema,omitempty"`
}

// stepWait is what a step that waits for its server's questions keeps
// (tool_steps.request_state): what the server sent, and the request each
// of its questions became, by the server's id.
type stepWait struct {
	Input    *mcp.InputRequired `json:"inputRequired,omitempty"`
	URLs     []mcp.Elicitation  `json:"urlRequired,omitempty"`
	Requests map[string]string  `json:"requests"`
	// Done counts, by URL, the times the user said done to a link of
	// -32042 before the call was made again: a server asking for the
	// same link once more is told to the model, not asked forever.
	Done map[string]int `json:"done,omitempty"`
}

// linkRepeats is how many times a link may be done before the server's
// asking for it again ends the call: once more is the usual case of a
// call made again on a new connection (after a restart), which the
// server does not recognise.
const linkRepeats = 2

func decodeWait(ns sql.NullString) stepWait {
	var w stepWait
	if ns.Valid {
		json.Unmarshal([]byte(ns.String), &w)
	}
	return w
}

// maxRounds bounds how often one call may come back asking again.
const maxRounds = 16

// askForStep opens the questions of an input_required result or a
// -32042 error as durable requests of the step, which then waits.
func (h *mcpHost) askForStep(ctx context.Context, tx *txn, step *store.ToolStep, res mcp.Result) (agent.StepPlan, error) {
	s := h.s
	if step.Attempts > maxRounds {
		return h.finish(step, OutcomeFailed, toolMessage(StatusFailed, step.Name, fmt.Sprintf("the server asked again after %d rounds of questions; followup gave up", maxRounds))), nil
	}
	w := stepWait{Input: res.InputRequired, URLs: res.URLRequired, Requests: map[string]string{}}
	if w.Input == nil {
		w.Done = decodeWait(step.RequestState).Done
		for _, e := range w.URLs {
			if w.Done[e.URL] >= linkRepeats {
				return h.finish(step, OutcomeFailed, toolMessage(StatusFailed, step.Name, fmt.Sprintf("%s asked again for the link %s after the user said done %d times; followup does not ask for it again (the page may not have been completed, or the server does not recognise the call made again)", e.Server, e.URL, w.Done[e.URL]))), nil
			}
		}
	}
	asks := map[string]mcp.Elicitation{}
	if w.Input != nil {
		maps.Copy(asks, w.Input.Requests)
	} else {
		for i, e := range w.URLs {
			asks[fmt.Sprint(i)] = e
		}
	}
	keys := slices.Sorted(maps.Keys(asks))
	run, err := s.store.GetRun(ctx, tx, step.RunID)
	if err != nil {
		return agent.StepPlan{}, err
	}
	for _, k := range keys {
		r, err := h.openServerRequest(ctx, tx, run, step.ToolCallID, asks[k], false, k)
		if err != nil {
			if e, ok := err.(*Error); ok && e.Code == CodeRequestInvalid {
				return h.finish(step, OutcomeFailed, toolMessage(StatusFailed, step.Name, "the server asked a question followup cannot show: "+e.Message+problemText(e))), nil
			}
			return agent.StepPlan{}, err
		}
		w.Requests[k] = r.ID
		tx.emit(requestEvent(r), Event{Kind: EvMessage, ChatID: r.ChatID, RunID: run.ID})
	}
	step.RequestState = nullString(mustJSON(w))
	if len(keys) == 0 {
		// Only roots/list, which followup answers with no roots: retry now.
		step.Attempts++
		return h.retryPlan(*step, w.Input, map[string]mcp.Reply{}), nil
	}
	step.State = store.StepInputRequired
	return agent.StepPlan{Action: agent.StepWait}, nil
}

// openServerRequest opens one question of a server in its call's run.
// classic marks an elicitation/create, which lives with the run's lease.
// An invalid requestedSchema is INPUT_REQUEST_INVALID with its problems.
func (h *mcpHost) openServerRequest(ctx context.Context, tx *txn, run store.Run, toolCallID string, e mcp.Elicitation, classic bool, key string) (store.Request, error) {
	s := h.s
	owner, err := s.runOwner(ctx, tx, run)
	if err != nil {
		return store.Request{}, err
	}
	owner.Kind, owner.Name = OwnerMCPServer, clip(e.Server, maxOwnerName)
	mc := mcpContext{Mode: e.Mode, Tool: e.Tool, Live: classic, Schema: e.RequestedSchema, Agent: owner.Path}
	var decl *forms.Declaration
	switch e.Mode {
	case mcp.ModeURL:
		mc.URL = e.URL
		decl = &forms.Declaration{Reason: forms.SanitizeLine(e.Message), Definition: forms.Definition{
			Title: "Open a link for " + e.Server, Fields: []forms.Field{}}}
		// Only a link followup may open is shown (docs/mcp.md): the server
		// hears why another is refused.
		if c := CheckLink(e.URL); !c.Openable {
			return store.Request{}, problemsError(CodeRequestInvalid, "the link is refused: "+c.Problem, nil)
		}
	default:
		var problems []forms.Problem
		decl, problems = forms.ParseServerSchema(e.RequestedSchema)
		if len(problems) > 0 {
			return store.Request{}, problemsError(CodeRequestInvalid, "the requested schema is not a form followup can show", problems)
		}
		decl.Reason = e.Message
		decl.Definition.Title = cmp.Or(decl.Definition.Title, "Question from "+e.Server)
	}
	decl.Reason = clip(decl.Reason, 4096)
	decl.RequestKey = NewID("mcp")
	decl.Context = json.RawMessage(mustJSON(mc))
	a := &asker{chatID: run.ChatID, run: &run, toolCallID: toolCallID, owner: owner}
	r, err := s.insertRequest(ctx, tx, a, decl.RequestKey, decl)
	if err != nil {
		return r, err
	}
	err = s.store.InsertMCPRequest(ctx, tx, store.MCPRequest{RequestID: r.ID, RunID: run.ID, ToolCallID: toolCallID,
		Server: e.Server, Mode: e.Mode, Classic: classic, InputKey: key, ElicitationID: e.ElicitationID})
	return r, err
}

// problemText lists a few of an error's problems in one line.
func problemText(e *Error) string {
	ps, _ := e.Details["problems"].([]forms.Problem)
	var parts []string
	for i, p := range ps {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, p.Path+": "+p.Message)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// replies reads the step's questions of its current round: the reply each
// closed one gives its server, and whether any is still open.
func (h *mcpHost) replies(ctx context.Context, tx store.Handle, w stepWait) (map[string]mcp.Reply, bool, error) {
	s := h.s
	out := map[string]mcp.Reply{}
	for key, id := range w.Requests {
		r, err := s.store.GetRequest(ctx, tx, id)
		if err != nil {
			return nil, false, err
		}
		if r.State == store.ReqPending {
			return nil, true, nil
		}
		rp, err := s.replyOf(ctx, tx, r)
		if err != nil {
			return nil, false, err
		}
		out[key] = rp
	}
	return out, false, nil
}

// replyOf is what a closed request tells its server (docs/mcp.md's table).
func (s *Service) replyOf(ctx context.Context, tx store.Handle, r store.Request) (mcp.Reply, error) {
	switch r.State {
	case store.ReqAnswered:
		a, err := s.store.GetAnswer(ctx, tx, r.ID)
		if err != nil {
			return mcp.Reply{}, err
		}
		content := decodeValues(a.Values)
		var mc mcpContext
		if json.Unmarshal([]byte(r.Context.String), &mc) == nil && len(mc.Schema) > 0 {
			// The form's field names back to the server's own (forms.SchemaNames).
			content = forms.ToSchemaNames(content, forms.SchemaNames(mc.Schema))
		}
		return mcp.Reply{Action: mcp.ActionAccept, Content: content}, nil
	case store.ReqCancelled:
		return mcp.Reply{Action: mcp.ActionDecline}, nil
	}
	return mcp.Reply{Action: mcp.ActionCancel}, nil
}

// serverClosed is called in the transaction that closes a request an MCP
// server asked: it records what the server receives (a delivery to the
// server, sent by the process that holds the call) and, once the last
// open question of a waiting call is closed, moves its run back to
// running so a drive retries the call — in any process.
func (s *Service) serverClosed(ctx context.Context, tx *txn, r store.Request) error {
	m, err := s.store.GetMCPRequest(ctx, tx, r.ID)
	if err == store.ErrNotFound {
		return nil
	} else if err != nil {
		return err
	}
	if err := s.store.CloseMCPRequest(ctx, tx, r.ID); err != nil {
		return err
	}
	rp, err := s.replyOf(ctx, tx, r)
	if err != nil {
		return err
	}
	now := s.nowMS()
	sent := map[string]any{"action": rp.Action}
	if rp.Action == mcp.ActionAccept && m.Mode == mcp.ModeForm {
		var mc mcpContext
		json.Unmarshal([]byte(r.Context.String), &mc)
		content, err := mcp.Prepare(mc.Schema, rp.Content)
		if err != nil {
			content = rp.Content // the SDK refuses it with its own message
		}
		sent["content"] = content
	}
	d := store.Delivery{RequestID: r.ID, Kind: deliveryKind(r), State: store.DeliveryPending, Target: store.TargetMCPServer,
		Payload: mustJSON(sent), CreatedAt: now, UpdatedAt: now}
	switch {
	case r.ClosedReason == ReasonWithdrawn:
		// The server took its question back: nothing is sent.
		d.State, d.LastError = store.DeliveryFailed, "withdrawn by the server"
	case r.ClosedReason == ReasonDisconnected:
		d.State, d.LastError = store.DeliveryFailed, "the connection to the server ended"
	case r.ClosedReason == store.ReasonTaskStopped && !m.Classic:
		d.State, d.LastError = store.DeliveryFailed, "the task was stopped: the call is not retried"
	}
	if _, err := s.store.InsertDelivery(ctx, tx, d); err != nil {
		return err
	}
	run, err := s.store.GetRun(ctx, tx, m.RunID)
	if err != nil || run.State != store.RunWaitingInput {
		return err
	}
	if !m.Classic {
		rest, err := s.store.StepMCPRequests(ctx, tx, m.RunID, m.ToolCallID)
		if err != nil || slices.ContainsFunc(rest, func(o store.MCPRequest) bool { return o.Open && o.RequestID != r.ID }) {
			return err
		}
	}
	_, err = s.moveRun(ctx, tx, &run, store.RunWaitingInput, store.RunRunning)
	return err
}

func deliveryKind(r store.Request) string {
	switch r.State {
	case store.ReqAnswered:
		return store.DeliveryAnswer
	case store.ReqCancelled:
		return store.DeliveryCancel
	}
	return store.DeliveryExpire
}

// errNotCalledAgain is why a declined link's reply never reaches its
// server: only the call made again would carry it.
var errNotCalledAgain = errors.New("the call was not made again, so nothing reached the server")

// settleServerDeliveries marks what the step's durable questions told the
// server once the call that carried the replies returned (an
// input_required retry carries them; after -32042 the call made again
// says the links are done): delivered, or failed with the call's error.
func (h *mcpHost) settleServerDeliveries(ctx context.Context, tx store.Handle, step store.ToolStep, callErr error) error {
	s := h.s
	w := decodeWait(step.RequestState)
	if len(w.Requests) == 0 {
		return nil
	}
	for _, id := range w.Requests {
		ds, err := s.store.RequestDeliveries(ctx, tx, id, store.DeliveryPending, store.DeliveryUnknown)
		if err == nil {
			err = s.setDeliveries(ctx, tx, ds, func(d *store.Delivery) bool {
				delivered(d)
				if callErr != nil {
					d.State, d.LastError = store.DeliveryFailed, clip(callErr.Error(), maxToolMessage)
				}
				return d.Target == store.TargetMCPServer
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// liftMCP moves an MCP server's request's mode, URL and tool from its
// context column into its item.
func liftMCP(v *RequestItem) {
	var mc mcpContext
	if len(v.Context) > 0 && json.Unmarshal(v.Context, &mc) == nil {
		v.Mode, v.URL, v.Tool, v.Live = mc.Mode, mc.URL, mc.Tool, mc.Live
	}
	v.Context = nil
}

// serverReply reads what a delivery to a server carries.
func serverReply(payload string) (string, map[string]any) {
	var p struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	json.Unmarshal([]byte(payload), &p)
	return p.Action, p.Content
}

// checkLive refuses an answer or cancel of a classic elicitation whose
// connection is gone (its run's lease is free): the server could never
// receive it. The expiry sweep closes it as disconnected.
func (s *Service) checkLive(ctx context.Context, tx store.Handle, r store.Request) error {
	if r.OwnerKind != store.OwnerMCPServer {
		return nil
	}
	m, err := s.store.GetMCPRequest(ctx, tx, r.ID)
	if err == store.ErrNotFound || (err == nil && !m.Classic) {
		return nil
	} else if err != nil {
		return err
	}
	run, err := s.store.GetRun(ctx, tx, m.RunID)
	if err != nil {
		return err
	}
	if held, err := s.db.LeaseHeld(run.Seq); err != nil || held {
		return err
	}
	return &Error{Code: CodeTargetClosed, Message: "the MCP server's connection ended with the process that asked: nothing can reach it",
		Details: map[string]any{"state": store.ReqExpired, "closedReason": ReasonDisconnected}}
}
