package chat

import (
	"context"
	"errors"
	"time"

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
	// Focus is the field the user was typing in, for a form built from
	// the draft again to come back to ("" when unknown: a save without it
	// keeps the one stored).
	Focus string `json:"-"`
	// Saved is when the draft was last saved (zero for one not yet stored).
	Saved time.Time `json:"-"`
	// Base, when not nil, is the stored draft these values were edited
	// from (empty: none was stored). A draft another process stored since
	// (a proposal accepted from the CLI, another window) is then not
	// overwritten: the two are merged by MergeEdits, so what the user did
	// not edit here keeps the newer value.
	Base forms.Values `json:"-"`
}

// SaveDraft stores the draft of a revision. Saving for a closed request or
// an old revision is refused, so a late autosave cannot resurrect anything.
// With a Base, a draft stored since by another hand is merged, not
// overwritten.
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
		vals, edited, err := s.mergeStoredDraft(ctx, tx, r, d, vals)
		if err != nil {
			return err
		}
		return s.store.UpsertDraft(ctx, tx, store.Draft{RequestID: d.RequestID, Revision: d.Revision,
			Values: vals, Edited: edited, UpdatedAt: s.nowMS(), Focus: d.Focus})
	})
}

// mergeStoredDraft is what saving d over the stored draft keeps: d's own
// values (vals, encoded), unless d has a Base and the stored draft is no
// longer it — then the two merged.
func (s *Service) mergeStoredDraft(ctx context.Context, tx store.Handle, r store.Request, d Draft, vals string) (string, bool, error) {
	if d.Base == nil {
		return vals, d.Edited, nil
	}
	stored, err := s.store.GetDraft(ctx, tx, r.ID, r.Revision)
	if errors.Is(err, store.ErrNotFound) {
		stored, err = store.Draft{}, nil
	}
	if err != nil {
		return "", false, err
	}
	theirs := decodeValues(stored.Values)
	if mustJSON(theirs) == mustJSON(decodeValues(mustJSON(d.Base))) {
		// Nobody else wrote it since. A draft once edited stays edited: a
		// save from a screen that has not edited it yet (a form reopened)
		// does not make a replace overwrite it without asking.
		return vals, d.Edited || stored.Edited, nil
	}
	rd, err := s.loadRevision(ctx, tx, r.ID, r.Revision)
	if err != nil {
		return "", false, err
	}
	m := MergeEdits(rd.def.Fields, rd.prefill, d.Base, d.Values, theirs)
	merged := mustJSON(m.Values)
	if len(merged) > s.policy.ReplySize {
		return "", false, &Error{Code: CodeLimitExceeded, Message: "the draft is larger than a reply may be",
			Details: map[string]any{"limit": s.policy.ReplySize, "size": len(merged)}}
	}
	return merged, d.Edited || stored.Edited, nil
}

// LoadDraft returns the saved draft of a revision, if any.
func (s *Service) LoadDraft(ctx context.Context, requestID string, revision int) (Draft, bool, error) {
	d, err := s.store.GetDraft(ctx, s.reader(), requestID, revision)
	if errors.Is(err, store.ErrNotFound) {
		return Draft{}, false, nil
	} else if err != nil {
		return Draft{}, false, err
	}
	return Draft{RequestID: requestID, Revision: revision, Edited: d.Edited, Values: decodeValues(d.Values),
		Focus: d.Focus, Saved: time.UnixMilli(d.UpdatedAt)}, true, nil
}
