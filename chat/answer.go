package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"followup/forms"
	"followup/store"
)

// Receipt is the result of answering or cancelling a request.
type Receipt struct {
	RequestID  string   `json:"requestId"`
	CommandID  string   `json:"commandId"`
	Kind       string   `json:"kind"`
	ApplyState string   `json:"applyState"` // applied | partial
	Missing    []string `json:"missing"`
	RunID      string   `json:"runId,omitempty"`
}

func (r *Receipt) setCommandID(id string) { r.CommandID = id }

// Apply states.
const (
	Applied = "applied"
	Partial = "partial"
)

// AnswerInput is a reply to a request.
type AnswerInput struct {
	RequestID string
	Digest    string         // when set, the current digest or a prefix of it (MinDigestPrefix or more)
	Values    map[string]any // raw values; normalised against the revision
	CommandID string
	// Over, when set, is the partial answer the reply was made over — what
	// the user was shown under their own values. A different one stored
	// now (a partial answer given elsewhere meanwhile) refuses the reply
	// with STALE_TARGET and records nothing: no value the user was not
	// shown is ever recorded with theirs.
	Over *forms.Values
}

// Answer records the user's confirmed values. A complete answer closes the
// request and records a delivery to the agent; a partial one is kept and
// the request stays pending with the missing fields named. An invalid reply
// changes nothing.
func (s *Service) Answer(ctx context.Context, in AnswerInput) (Receipt, error) {
	if in.CommandID == "" {
		in.CommandID = NewID("cmd")
	}
	var chatID string
	args := map[string]any{"requestId": in.RequestID, "digest": in.Digest, "values": in.Values}
	if in.Over != nil {
		args["over"] = *in.Over
	}
	return commandAs(s, ctx, in.CommandID, "answer", &chatID, args, func(tx *txn) (*Receipt, error) {
		r, rd, err := s.openTarget(ctx, tx, in.RequestID, in.Digest)
		if err != nil {
			return nil, err
		}
		if stored := decodePartial(r.Partial.String).Values; in.Over != nil && !sameValues(*in.Over, stored) {
			return nil, &Error{Code: CodeStaleTarget, Message: "the request was partly answered elsewhere meanwhile; nothing was recorded",
				Details: map[string]any{"requestId": r.ID, "partial": stored}}
		}
		chatID = r.ChatID
		vals, problems := s.checkReply(rd.def, rd.supplied, in.Values)
		if len(problems) > 0 {
			return nil, problemsError(CodeReplyInvalid, "the reply is invalid", problems)
		}
		part := decodePartial(r.Partial.String)
		for k, v := range vals {
			part.Values[k] = v
			part.Origins[k] = "response"
		}
		rc := Receipt{RequestID: r.ID, Kind: "answer", RunID: r.RunID.String, Missing: forms.Missing(rd.def, rd.supplied, part.Values)}
		if rc.Missing == nil {
			rc.Missing = []string{}
		}
		if len(rc.Missing) > 0 {
			rc.ApplyState = Partial
			tx.emit(requestEvent(r))
			r.Partial = nullString(mustJSON(part))
			r.UpdatedAt = s.nowMS()
			return &rc, s.saveRequest(ctx, tx, r, &rd)
		}
		rc.ApplyState = Applied
		return &rc, s.recordAnswer(ctx, tx, &r, rd.supplied, part.Values, in.CommandID, false)
	})
}

// sameValues reports whether two sets of values are the same, as stored.
func sameValues(a, b forms.Values) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return mustJSON(a) == mustJSON(b)
}

// CheckReply validates values for a request exactly as Answer will,
// without recording anything: the review shows these problems before the
// user sends.
func (s *Service) CheckReply(r RequestView, values map[string]any) []forms.Problem {
	_, problems := s.checkReply(r.Definition, r.Supplied, values)
	return problems
}

// checkReply is the one validation of a reply: size policy, the revision's
// rules, and supplied values that cannot be answered over.
func (s *Service) checkReply(def forms.Definition, supplied forms.Values, values map[string]any) (forms.Values, []forms.Problem) {
	if b, _ := json.Marshal(values); len(b) > s.policy.ReplySize {
		return nil, []forms.Problem{{Path: "/values",
			Message: fmt.Sprintf("the reply is %d bytes; the limit is %d", len(b), s.policy.ReplySize)}}
	}
	vals, problems := forms.Normalize(def, values, "/values")
	return vals, append(problems, suppliedProblems(vals, supplied)...)
}

// suppliedProblems refuses values for fields the declaration supplied: they
// are not asked, so neither an answer nor a proposal may change them.
func suppliedProblems(vals, supplied forms.Values) []forms.Problem {
	var ps []forms.Problem
	for _, f := range slices.Sorted(maps.Keys(vals)) {
		if _, ok := supplied[f]; ok {
			ps = append(ps, forms.Problem{Path: "/values/" + f, Message: "this value was supplied by the declaration and cannot be changed"})
		}
	}
	return ps
}

// openTarget loads a request that must still be pending at digest (when
// given: the whole digest or a prefix of it, see checkDigest).
func (s *Service) openTarget(ctx context.Context, tx store.Handle, id, digest string) (store.Request, revisionData, error) {
	r, err := s.store.GetRequest(ctx, tx, id)
	if err != nil {
		return r, revisionData{}, notFound(err, "request", id)
	}
	if err := s.requireActive(ctx, tx, r.ChatID); err != nil {
		return r, revisionData{}, err
	}
	if r.State != store.ReqPending {
		return r, revisionData{}, closedError(r)
	}
	if err := s.checkLive(ctx, tx, r); err != nil {
		return r, revisionData{}, err
	}
	if err := s.checkDigest(ctx, tx, r, digest); err != nil {
		return r, revisionData{}, err
	}
	rd, err := s.loadRevision(ctx, tx, r.ID, r.Revision)
	return r, rd, err
}

func closedError(r store.Request) *Error {
	msg := "the request " + RequestState(r.State).Words()
	if r.ClosedReason != "" {
		msg += " (" + r.ClosedReason + ")"
	}
	return &Error{Code: CodeTargetClosed, Message: msg,
		Details: map[string]any{"state": r.State, "closedReason": r.ClosedReason}}
}

// recordAnswer closes r as answered with supplied + response values and
// records the delivery (already delivered when the answer is the tool's own
// result, as for a declaration that asked nothing).
func (s *Service) recordAnswer(ctx context.Context, tx *txn, r *store.Request, supplied, response forms.Values, commandID string, inline bool) error {
	now := s.nowMS()
	vals, origins := forms.Values{}, map[string]string{}
	for k, v := range supplied {
		vals[k], origins[k] = v, "declaration"
	}
	for k, v := range response {
		vals[k], origins[k] = v, "response"
	}
	if commandID == "" {
		commandID = NewID("cmd")
	}
	if err := s.store.InsertAnswer(ctx, tx, store.Answer{RequestID: r.ID, Revision: r.Revision, Digest: r.Digest,
		Values: mustJSON(vals), Origins: mustJSON(origins), CommandID: commandID, CreatedAt: now}); err != nil {
		return err
	}
	r.Partial = nullString("")
	if err := s.closeRequest(ctx, tx, r, store.ReqAnswered, ""); err != nil {
		return err
	}
	state := store.DeliveryPending
	if inline {
		state = store.DeliveryDelivered
	}
	return s.recordDelivery(ctx, tx, *r, store.DeliveryAnswer, state, receivedPayload(*r, &AnswerView{Values: vals, Origins: origins}))
}

// receivedPayload is what the agent receives for an answer (docs/behaviour.md).
func receivedPayload(r store.Request, a *AnswerView) string {
	origin := map[string]any{"originalRequest": r.RequestKey}
	for k, v := range map[string]string{"toolCallId": r.ToolCallID, "runId": r.RunID.String, "sessionId": r.SessionID.String} {
		if v != "" { // a serve session's question has no run and no tool call
			origin[k] = v
		}
	}
	if r.Origin.Valid {
		var o Origin
		json.Unmarshal([]byte(r.Origin.String), &o)
		origin["skill"], origin["skillCandidates"] = o.Skill, o.SkillCandidates
	}
	p := map[string]any{
		"status": "input_received", "requestId": r.ID, "values": a.Values, "origins": a.Origins, "origin": origin,
	}
	if r.Context.Valid {
		p["context"] = json.RawMessage(r.Context.String)
	}
	return mustJSON(p)
}
