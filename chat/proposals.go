package chat

import (
	"context"
	"encoding/json"
	"errors"

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
	if err := s.ExpireDue(ctx); err != nil {
		return ProposalResult{}, err
	}
	args := map[string]any{"requestId": requestID, "digest": digest, "values": values}
	var chatID string
	out, err := s.command(ctx, commandID, "resolve", &chatID, args, func(q store.Q) (any, error) {
		r, rd, err := s.openTarget(ctx, q, requestID, digest)
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
		return s.propose(ctx, q, r, ProposeResolve, proposalPayload{Values: vals})
	})
	return decodeProposal(s, out, err, chatID, requestID)
}

func (s *Service) propose(ctx context.Context, q store.Q, r store.Request, kind string, pl proposalPayload) (*ProposalResult, error) {
	now := s.nowMS()
	if err := q.SupersedeProposals(ctx, r.ID, now); err != nil {
		return nil, err
	}
	p := store.Proposal{ID: NewID("prop"), RequestID: r.ID, Kind: kind, State: store.ProposalPending,
		BaseDigest: r.Digest, Payload: mustJSON(pl), CreatedAt: now}
	if err := q.InsertProposal(ctx, p); err != nil {
		return nil, err
	}
	return &ProposalResult{RequestID: r.ID, ConfirmationRequired: true, ProposalID: p.ID, Digest: r.Digest, Revision: r.Revision}, nil
}

func decodeProposal(s *Service, out json.RawMessage, err error, chatID, requestID string) (ProposalResult, error) {
	if err != nil {
		return ProposalResult{}, err
	}
	var res ProposalResult
	if err := json.Unmarshal(out, &res); err != nil {
		return res, err
	}
	if chatID != "" {
		s.broker.Publish(Event{Kind: EvRequest, ChatID: chatID, RequestID: requestID})
	}
	return res, nil
}

// ReplaceInput is a new definition and/or prefill for a pending request.
type ReplaceInput struct {
	RequestID string          `json:"requestId"`
	Digest    string          `json:"digest,omitempty"`
	Source    json.RawMessage `json:"source,omitempty"`
	Prefill   json.RawMessage `json:"prefill,omitempty"`
}

// Replace makes a new revision of a pending request, or, when the user has
// already edited a draft, a replace proposal the user must confirm.
func (s *Service) Replace(ctx context.Context, in ReplaceInput, commandID string) (ProposalResult, error) {
	if err := s.ExpireDue(ctx); err != nil {
		return ProposalResult{}, err
	}
	var chatID string
	out, err := s.command(ctx, commandID, "replace", &chatID, in, func(q store.Q) (any, error) {
		r, rd, err := s.openTarget(ctx, q, in.RequestID, in.Digest)
		if err != nil {
			return nil, err
		}
		chatID = r.ChatID
		pl, err := s.replacement(storeTemplates{ctx, q}, r, rd, in)
		if err != nil {
			return nil, err
		}
		if forms.Digest(*pl.Definition, pl.Prefill, pl.Supplied) == r.Digest {
			// Nothing changes: no new revision, and nothing for the user to confirm.
			return &ProposalResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision}, nil
		}
		d, err := q.GetDraft(ctx, r.ID, r.Revision)
		if err == nil && d.Edited {
			return s.propose(ctx, q, r, ProposeReplace, pl)
		} else if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if err := s.applyRevision(ctx, q, &r, pl, nil); err != nil {
			return nil, err
		}
		return &ProposalResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision}, nil
	})
	return decodeProposal(s, out, err, chatID, in.RequestID)
}

// replacement validates a replace through the same declaration rules as
// input_request: the request's key and supplied values with the new form.
func (s *Service) replacement(templates forms.Templates, r store.Request, rd revisionData, in ReplaceInput) (proposalPayload, error) {
	decl := map[string]any{"requestKey": r.RequestKey}
	if len(in.Source) > 0 {
		decl["source"] = in.Source
	} else {
		decl["source"] = map[string]any{"kind": "dynamic", "definition": rd.def}
	}
	if len(in.Prefill) > 0 {
		decl["prefill"] = in.Prefill
	} else if len(rd.prefill) > 0 {
		decl["prefill"] = rd.prefill
	}
	if len(rd.supplied) > 0 {
		decl["supplied"] = rd.supplied
	}
	parsed, problems := forms.ParseDeclaration([]byte(mustJSON(decl)), templates)
	if len(problems) > 0 {
		return proposalPayload{}, problemsError(CodeRequestInvalid, "the replacement is invalid", problems)
	}
	def := parsed.Definition
	tmpl := parsed.Source.Template
	if len(in.Source) == 0 {
		tmpl = r.Template // the same form, still from its template
	}
	return proposalPayload{Definition: &def, Prefill: parsed.Prefill, Supplied: parsed.Supplied, Template: tmpl}, nil
}

// applyRevision writes a new revision. draft, when given, becomes the draft
// of the new revision (the values the user keeps).
func (s *Service) applyRevision(ctx context.Context, q store.Q, r *store.Request, pl proposalPayload, draft forms.Values) error {
	now := s.nowMS()
	r.Revision++
	r.Digest = forms.Digest(*pl.Definition, pl.Prefill, pl.Supplied)
	r.Title = pl.Definition.Title
	r.Template = pl.Template
	r.Partial = nullString(keptPartial(*pl.Definition, pl.Supplied, decodePartial(r.Partial.String)))
	r.UpdatedAt = now
	if len(draft) > 0 {
		if err := q.UpsertDraft(ctx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: mustJSON(draft),
			Edited: true, UpdatedAt: now}); err != nil {
			return err
		}
	}
	if err := q.SupersedeProposals(ctx, r.ID, now); err != nil {
		return err
	}
	return s.saveRevision(ctx, q, *r, store.Revision{RequestID: r.ID, Revision: r.Revision, Digest: r.Digest,
		Definition: mustJSON(pl.Definition), Prefill: nullString(valuesJSON(pl.Prefill)),
		Supplied: nullString(valuesJSON(pl.Supplied)), CreatedAt: now})
}

// keptPartial carries a partial answer over to a new revision: the values
// the user already confirmed stay, for fields that are still asked and
// whose value is still valid.
func keptPartial(def forms.Definition, supplied forms.Values, part partialData) string {
	kept := partialData{Values: forms.Values{}, Origins: map[string]string{}}
	for name, v := range part.Values {
		if _, sup := supplied[name]; sup {
			continue
		}
		f, ok := def.FieldByName(name)
		if !ok {
			continue
		}
		one, problems := forms.Normalize(forms.Definition{Fields: []forms.Field{f}}, map[string]any{name: v}, "")
		if nv, ok := one[name]; ok && len(problems) == 0 {
			kept.Values[name], kept.Origins[name] = nv, part.Origins[name]
		}
	}
	if len(kept.Values) == 0 {
		return ""
	}
	return mustJSON(kept)
}
