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
	if err := s.expireDue(ctx); err != nil {
		return err
	}
	return s.db.Write(ctx, func(tx store.Handle) error {
		r, err := s.store.GetRequest(ctx, tx, d.RequestID)
		if err != nil {
			return notFound(err, "request", d.RequestID)
		}
		if r.State != store.ReqPending {
			return closedError(r)
		}
		if r.Revision != d.Revision {
			return errorf(CodeStaleTarget, "the request is at revision %d", r.Revision)
		}
		return s.store.UpsertDraft(ctx, tx, store.Draft{RequestID: d.RequestID, Revision: d.Revision,
			Values: vals, Edited: d.Edited, UpdatedAt: s.nowMS()})
	})
}

// LoadDraft returns the saved draft of a revision, if any.
func (s *Service) LoadDraft(ctx context.Context, requestID string, revision int) (Draft, bool, error) {
	d, err := s.store.GetDraft(ctx, s.reader(), requestID, revision)
	if errors.Is(err, store.ErrNotFound) {
		return Draft{}, false, nil
	} else if err != nil {
		return Draft{}, false, err
	}
	out := Draft{RequestID: requestID, Revision: revision, Edited: d.Edited, Values: forms.Values{}}
	json.Unmarshal([]byte(d.Values), &out.Values)
	return out, true, nil
}
