package chat

import (
	"context"
	"encoding/json"
	"errors"

	"followup/forms"
	"followup/store"
)

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
	var chatID string
	return commandAs(s, ctx, commandID, "replace", &chatID, in, func(tx *txn) (*ProposalResult, error) {
		r, rd, err := s.openTarget(ctx, tx, in.RequestID, in.Digest)
		if err != nil {
			return nil, err
		}
		chatID = r.ChatID
		tx.emit(requestEvent(r))
		pl, err := s.replacement(storeTemplates{ctx, s.store, tx}, r, rd, in)
		if err != nil {
			return nil, err
		}
		if forms.Digest(*pl.Definition, pl.Prefill, pl.Supplied) == r.Digest {
			// Nothing changes: no new revision, and nothing for the user to confirm.
			return &ProposalResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision}, nil
		}
		d, err := s.store.GetDraft(ctx, tx, r.ID, r.Revision)
		if err == nil && d.Edited {
			return s.propose(ctx, tx, r, ProposeReplace, pl)
		} else if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		if err := s.applyRevision(ctx, tx, &r, pl, nil); err != nil {
			return nil, err
		}
		return &ProposalResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision}, nil
	})
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
func (s *Service) applyRevision(ctx context.Context, tx store.Handle, r *store.Request, pl proposalPayload, draft forms.Values) error {
	now := s.nowMS()
	r.Revision++
	r.Digest = forms.Digest(*pl.Definition, pl.Prefill, pl.Supplied)
	r.Title = pl.Definition.Title
	r.Template = pl.Template
	r.Partial = nullString(keptPartial(*pl.Definition, pl.Supplied, decodePartial(r.Partial.String)))
	r.UpdatedAt = now
	if len(draft) > 0 {
		if err := s.store.UpsertDraft(ctx, tx, store.Draft{RequestID: r.ID, Revision: r.Revision, Values: mustJSON(draft),
			Edited: true, UpdatedAt: now}); err != nil {
			return err
		}
	}
	if err := s.store.SupersedeProposals(ctx, tx, r.ID, now); err != nil {
		return err
	}
	return s.saveRevision(ctx, tx, *r, store.Revision{RequestID: r.ID, Revision: r.Revision, Digest: r.Digest,
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
