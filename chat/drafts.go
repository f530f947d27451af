package chat

import (
	"context"
	"encoding/json"
	"errors"

	"followup/forms"
	"followup/store"
)

// Draft is the user's unfinished values of one request revision. It is
// never shown to the model.
type Draft struct {
	RequestID string       `json:"requestId"`
	Revision  int          `json:"revision"`
	Values    forms.Values `json:"values"`
	Edited    bool         `json:"edited"`
}

// SaveDraft stores the draft of a revision. Saving for a closed request or
// an old revision is refused, so a late autosave cannot resurrect anything.
func (s *Service) SaveDraft(ctx context.Context, d Draft) error {
	vals := mustJSON(d.Values)
	if len(vals) > s.policy.ReplySize {
		return &Error{Code: CodeLimitExceeded, Message: "the draft is larger than a reply may be",
			Details: map[string]any{"limit": s.policy.ReplySize, "size": len(vals)}}
	}
	return s.st.Write(ctx, func(q store.Q) error {
		r, err := q.GetRequest(ctx, d.RequestID)
		if err != nil {
			return notFound(err, "request", d.RequestID)
		}
		if r.State != store.ReqPending {
			return closedError(r)
		}
		if r.Revision != d.Revision {
			return errorf(CodeStaleTarget, "the request is at revision %d", r.Revision)
		}
		return q.UpsertDraft(ctx, store.Draft{RequestID: d.RequestID, Revision: d.Revision,
			Values: vals, Edited: d.Edited, UpdatedAt: s.nowMS()})
	})
}

// LoadDraft returns the saved draft of a revision, if any.
func (s *Service) LoadDraft(ctx context.Context, requestID string, revision int) (Draft, bool, error) {
	d, err := s.st.Read().GetDraft(ctx, requestID, revision)
	if errors.Is(err, store.ErrNotFound) {
		return Draft{}, false, nil
	} else if err != nil {
		return Draft{}, false, err
	}
	out := Draft{RequestID: requestID, Revision: revision, Edited: d.Edited, Values: forms.Values{}}
	json.Unmarshal([]byte(d.Values), &out.Values)
	return out, true, nil
}

// Decision is the user's answer to a proposal.
type Decision struct {
	ProposalID string `json:"proposalId"`
	Accept     bool   `json:"accept"`
	// Draft is what the user has in the form now; accepting a resolve merges
	// the proposed values into it.
	Draft forms.Values `json:"draft,omitempty"`
}

// DecideResult is the receipt of a decision.
type DecideResult struct {
	RequestID string       `json:"requestId"`
	State     string       `json:"state"`
	Revision  int          `json:"revision"`
	Draft     forms.Values `json:"draft"`
	CommandID string       `json:"commandId"`
}

func (r *DecideResult) setCommandID(id string) { r.CommandID = id }

// Decide accepts or rejects a proposal. Only accepting changes the draft
// (resolve) or the revision (replace); keep-mine changes nothing else.
func (s *Service) Decide(ctx context.Context, d Decision, commandID string) (DecideResult, error) {
	if err := s.ExpireDue(ctx); err != nil {
		return DecideResult{}, err
	}
	var chatID, reqID string
	out, err := s.command(ctx, commandID, "decide", &chatID, d, func(q store.Q) (any, error) {
		p, err := q.GetProposal(ctx, d.ProposalID)
		if err != nil {
			return nil, notFound(err, "proposal", d.ProposalID)
		}
		if p.State != store.ProposalPending {
			return nil, errorf(CodeTargetClosed, "the proposal is %s", p.State)
		}
		r, _, err := s.openTarget(ctx, q, p.RequestID, p.BaseDigest)
		if err != nil {
			return nil, err
		}
		chatID, reqID = r.ChatID, r.ID
		now := s.nowMS()
		res := &DecideResult{RequestID: r.ID, Revision: r.Revision, Draft: d.Draft}
		if !d.Accept {
			res.State = store.ProposalRejected
			return res, q.DecideProposal(ctx, p.ID, store.ProposalRejected, now)
		}
		res.State = store.ProposalAccepted
		if err := q.DecideProposal(ctx, p.ID, store.ProposalAccepted, now); err != nil {
			return nil, err
		}
		var pl proposalPayload
		if err := json.Unmarshal([]byte(p.Payload), &pl); err != nil {
			return nil, err
		}
		// What the user has now: the form's values when the caller sends
		// them, else the saved draft, so accepting never drops typed values.
		merged := forms.Values{}
		base := d.Draft
		if base == nil {
			saved, err := q.GetDraft(ctx, r.ID, r.Revision)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			base = decodeValues(saved.Values)
		}
		for k, v := range base {
			merged[k] = v
		}
		if p.Kind == ProposeResolve {
			for k, v := range pl.Values {
				merged[k] = v
			}
			res.Draft = merged
			return res, q.UpsertDraft(ctx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: mustJSON(merged),
				Edited: true, UpdatedAt: now})
		}
		kept := keptValues(*pl.Definition, pl.Supplied, merged)
		if err := s.applyRevision(ctx, q, &r, pl, kept); err != nil {
			return nil, err
		}
		res.Revision, res.Draft = r.Revision, kept
		return res, nil
	})
	if err != nil {
		return DecideResult{}, err
	}
	var res DecideResult
	if err := json.Unmarshal(out, &res); err != nil {
		return res, err
	}
	s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RequestID: reqID})
	return res, nil
}

// keptValues are the user's values for fields that still exist and are
// still asked. Drafts stay lenient (number text is kept as typed); the form
// built from them draws what no longer fits as empty.
func keptValues(def forms.Definition, supplied, vals forms.Values) forms.Values {
	kept := forms.Values{}
	for _, f := range def.Fields {
		v, ok := vals[f.Name]
		if _, sup := supplied[f.Name]; ok && !sup {
			kept[f.Name] = v
		}
	}
	return kept
}
