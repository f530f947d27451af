package chat

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"followup/forms"
	"followup/store"
)

// Proposal kinds.
const (
	ProposeResolve = "resolve"
	ProposeReplace = "replace"
)

// ProposalView is a change waiting for the user's decision.
type ProposalView struct {
	ID         string            `json:"proposalId"`
	RequestID  string            `json:"requestId"`
	Kind       string            `json:"kind"`
	State      string            `json:"state"`
	BaseDigest string            `json:"baseDigest"`
	Values     forms.Values      `json:"values,omitempty"`
	Definition *forms.Definition `json:"definition,omitempty"`
	Prefill    forms.Values      `json:"prefill,omitempty"`
}

type proposalPayload struct {
	Values     forms.Values      `json:"values,omitempty"`
	Definition *forms.Definition `json:"definition,omitempty"`
	Prefill    forms.Values      `json:"prefill,omitempty"`
	Supplied   forms.Values      `json:"supplied,omitempty"`
	// Template names the template the new form comes from ("" for none).
	Template string `json:"template,omitempty"`
}

func proposalView(p store.Proposal) ProposalView {
	var pl proposalPayload
	json.Unmarshal([]byte(p.Payload), &pl)
	return ProposalView{ID: p.ID, RequestID: p.RequestID, Kind: p.Kind, State: p.State, BaseDigest: p.BaseDigest,
		Values: pl.Values, Definition: pl.Definition, Prefill: pl.Prefill}
}

// proposalViews are the views of ps, nil when there are none.
func proposalViews(ps []store.Proposal) []ProposalView {
	var out []ProposalView
	for _, p := range ps {
		out = append(out, proposalView(p))
	}
	return out
}

// ProposalResult is the receipt of input_resolve and input_replace.
type ProposalResult struct {
	RequestID            string `json:"requestId"`
	ConfirmationRequired bool   `json:"confirmationRequired"`
	ProposalID           string `json:"proposalId,omitempty"`
	Digest               string `json:"digest"`
	Revision             int    `json:"revision"`
	CommandID            string `json:"commandId"`
}

func (r *ProposalResult) setCommandID(id string) { r.CommandID = id }

// Resolve records the agent's proposed values for a request. It is always
// a proposal: only the user's accept puts the values in the form.
func (s *Service) Resolve(ctx context.Context, requestID, digest string, values map[string]any, commandID string) (ProposalResult, error) {
	args := map[string]any{"requestId": requestID, "digest": digest, "values": values}
	var chatID string
	return commandAs(s, ctx, commandID, "resolve", &chatID, args, func(tx *txn) (*ProposalResult, error) {
		r, rd, err := s.openTarget(ctx, tx, requestID, digest)
		if err != nil {
			return nil, err
		}
		chatID = r.ChatID
		vals, problems := s.checkReply(rd.def, rd.supplied, values)
		if len(problems) > 0 {
			return nil, problemsError(CodeReplyInvalid, "the proposed values are invalid", problems)
		}
		if len(vals) == 0 {
			return nil, problemsError(CodeReplyInvalid, "the proposal has no values", []forms.Problem{{Path: "/values", Message: "at least one value is needed"}})
		}
		return s.propose(ctx, tx, r, ProposeResolve, proposalPayload{Values: vals})
	})
}

// propose records a proposal on r for the user to decide, and announces r.
func (s *Service) propose(ctx context.Context, tx *txn, r store.Request, kind string, pl proposalPayload) (*ProposalResult, error) {
	tx.emit(requestEvent(r))
	now := s.nowMS()
	if err := s.store.SupersedeProposals(ctx, tx, r.ID, now); err != nil {
		return nil, err
	}
	p := store.Proposal{ID: NewID("prop"), RequestID: r.ID, Kind: kind, State: store.ProposalPending,
		BaseDigest: r.Digest, Payload: mustJSON(pl), CreatedAt: now}
	return &ProposalResult{RequestID: r.ID, ConfirmationRequired: true, ProposalID: p.ID, Digest: r.Digest, Revision: r.Revision},
		s.store.InsertProposal(ctx, tx, p)
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
	var chatID string
	return commandAs(s, ctx, commandID, "decide", &chatID, d, func(tx *txn) (*DecideResult, error) {
		p, err := s.store.GetProposal(ctx, tx, d.ProposalID)
		if err != nil {
			return nil, notFound(err, "proposal", d.ProposalID)
		}
		if p.State != store.ProposalPending {
			return nil, errorf(CodeTargetClosed, "the proposal is %s", p.State)
		}
		r, _, err := s.openTarget(ctx, tx, p.RequestID, p.BaseDigest)
		if err != nil {
			return nil, err
		}
		chatID = r.ChatID
		tx.emit(requestEvent(r))
		now := s.nowMS()
		res := &DecideResult{RequestID: r.ID, Revision: r.Revision, Draft: d.Draft}
		if !d.Accept {
			res.State = store.ProposalRejected
			return res, s.store.DecideProposal(ctx, tx, p.ID, store.ProposalRejected, now)
		}
		res.State = store.ProposalAccepted
		if err := s.store.DecideProposal(ctx, tx, p.ID, store.ProposalAccepted, now); err != nil {
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
			saved, err := s.store.GetDraft(ctx, tx, r.ID, r.Revision)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			base = decodeValues(saved.Values)
		}
		maps.Copy(merged, base)
		if p.Kind == ProposeResolve {
			maps.Copy(merged, pl.Values)
			res.Draft = merged
			return res, s.store.UpsertDraft(ctx, tx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: mustJSON(merged),
				Edited: true, UpdatedAt: now})
		}
		kept := keptValues(*pl.Definition, pl.Supplied, merged)
		if err := s.applyRevision(ctx, tx, &r, pl, kept); err != nil {
			return nil, err
		}
		res.Revision, res.Draft = r.Revision, kept
		return res, nil
	})
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
