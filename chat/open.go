package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"

	"followup/forms"
	"followup/store"
)

// OpenResult is the receipt of input_request.
type OpenResult struct {
	RequestID string   `json:"requestId"`
	Digest    string   `json:"digest"`
	Revision  int      `json:"revision"`
	State     string   `json:"state"`
	Missing   []string `json:"missing"`
	// Result is the §5 input_received object when the declaration asked
	// nothing (every required field supplied) or the request was answered.
	Result json.RawMessage `json:"result,omitempty"`
}

// storeTemplates implements forms.Templates from the store, for the
// lookups of one declaration inside a transaction.
type storeTemplates struct {
	ctx   context.Context
	store store.TemplateStore
	tx    store.Handle
}

func (t storeTemplates) Template(name string) (forms.Definition, bool) {
	tp, err := t.store.GetTemplate(t.ctx, t.tx, name)
	if err != nil || tp.State != store.TemplateActive {
		return forms.Definition{}, false
	}
	var d forms.Definition
	if json.Unmarshal([]byte(tp.Definition), &d) != nil {
		return forms.Definition{}, false
	}
	return d, true
}

// OpenRequest validates a declaration and opens a pending request in the
// run (DESIGN §3–§4). It returns at once. A retry with the same requestKey
// and identical arguments returns the request's current state.
func (s *Service) OpenRequest(ctx context.Context, runID, toolCallID string, raw json.RawMessage) (OpenResult, error) {
	var res OpenResult
	sum := sha256.Sum256(raw)
	var canon any
	if json.Unmarshal(raw, &canon) == nil {
		sum = sha256.Sum256(forms.CanonicalJSON(canon))
	}
	hash := hex.EncodeToString(sum[:])
	var opened *store.Request
	err := s.db.Write(ctx, func(tx store.Handle) error {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return notFound(err, "run", runID)
		}
		if err := s.requireActive(ctx, tx, run.ChatID); err != nil {
			return err
		}
		// A retry is answered from the request it opened, before the
		// declaration is checked again: its template may be gone by now.
		var key struct {
			RequestKey string `json:"requestKey"`
		}
		if json.Unmarshal(raw, &key) == nil && key.RequestKey != "" {
			if prev, err := s.store.RequestByKey(ctx, tx, runID, key.RequestKey); err == nil {
				if prev.ArgsHash != hash {
					return errorf(CodeRequestKeyConfl, "requestKey %q is already used with different arguments", key.RequestKey)
				}
				res, err = s.openResult(ctx, tx, prev)
				return err
			} else if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		decl, problems := forms.ParseDeclaration(raw, storeTemplates{ctx, s.store, tx})
		if len(problems) > 0 {
			return problemsError(CodeRequestInvalid, "the input request is invalid", problems)
		}
		if store.RunEnded(run.State) {
			return errorf(CodeTargetClosed, "the run is %s", run.State)
		}
		if run.Questions >= s.policy.QuestionsPerRun {
			return &Error{Code: CodeLimitExceeded, Message: "this run has asked its limit of questions",
				Details: map[string]any{"limit": s.policy.QuestionsPerRun}}
		}
		r, err := s.insertRequest(ctx, tx, run, toolCallID, hash, decl)
		if err != nil {
			return err
		}
		run.Questions++
		run.UpdatedAt = s.nowMS()
		if err := s.store.UpdateRun(ctx, tx, run); err != nil {
			return err
		}
		opened = &r
		res, err = s.openResult(ctx, tx, r)
		return err
	})
	if err == nil && opened != nil {
		s.broker.Publish(Event{Kind: EvRequest, ChatID: opened.ChatID, RunID: runID, RequestID: opened.ID})
		s.broker.Publish(Event{Kind: EvMessage, ChatID: opened.ChatID, RunID: runID})
	}
	return res, err
}

func (s *Service) insertRequest(ctx context.Context, tx store.Handle, run store.Run, toolCallID, hash string, decl *forms.Declaration) (store.Request, error) {
	now := s.nowMS()
	r := store.Request{
		ID: NewID("rq"), ChatID: run.ChatID, RunID: nullString(run.ID), RequestKey: decl.RequestKey,
		ArgsHash: hash, ToolCallID: toolCallID, State: store.ReqPending, Revision: 1,
		Digest: forms.Digest(decl.Definition, decl.Prefill, decl.Supplied), Reason: decl.Reason,
		Title: decl.Definition.Title, Template: decl.Source.Template, CreatedAt: now, UpdatedAt: now,
	}
	if len(decl.Context) > 0 {
		r.Context = nullString(string(decl.Context))
	}
	if decl.ExpiresAt != nil {
		r.ExpiresAt.Int64, r.ExpiresAt.Valid = decl.ExpiresAt.UnixMilli(), true
	}
	r, err := s.createRequest(ctx, tx, r, store.Revision{
		Revision: 1, Digest: r.Digest, Definition: mustJSON(decl.Definition),
		Prefill: nullString(valuesJSON(decl.Prefill)), Supplied: nullString(valuesJSON(decl.Supplied)), CreatedAt: now,
	})
	if err != nil {
		return r, err
	}
	if _, err := s.store.InsertMessage(ctx, tx, store.Message{
		ChatID: run.ChatID, RunID: nullString(run.ID), Role: store.RoleRequest, RequestID: nullString(r.ID),
		Visible: true, CreatedAt: now,
	}); err != nil {
		return r, err
	}
	if !decl.Complete() {
		return r, nil
	}
	// Nothing to ask: the request completes at once, without a pause.
	return r, s.recordAnswer(ctx, tx, &r, decl.Definition, decl.Supplied, forms.Values{}, "", true)
}

func valuesJSON(v forms.Values) string {
	if len(v) == 0 {
		return ""
	}
	return mustJSON(v)
}

func (s *Service) openResult(ctx context.Context, tx store.Handle, r store.Request) (OpenResult, error) {
	v, err := s.view(ctx, tx, r)
	if err != nil {
		return OpenResult{}, err
	}
	res := OpenResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision, State: r.State, Missing: v.Missing}
	if r.State == store.ReqAnswered {
		res.Result = json.RawMessage(receivedPayload(r, v.Answer))
	}
	return res, nil
}

// requireActive refuses model operations on an archived or missing chat.
func (s *Service) requireActive(ctx context.Context, tx store.Handle, chatID string) error {
	c, err := s.store.GetChat(ctx, tx, chatID)
	if err != nil {
		return notFound(err, "chat", chatID)
	}
	if c.State == store.ChatArchived {
		return errorf(CodeChatArchived, "chat %s is archived", chatID)
	}
	return nil
}
