package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
	// Result is the input_received object (docs/input-requests.md) when the declaration asked
	// nothing (every required field supplied) or the request was answered.
	Result json.RawMessage `json:"result,omitempty"`
}

// storeTemplates implements forms.Templates from the store, for the
// lookups of one declaration inside a transaction.
type storeTemplates struct {
	ctx   context.Context
	store store.Queries
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
// run (docs/input-requests.md). It returns at once. A retry with the same requestKey
// and identical arguments returns the request's current state.
func (s *Service) OpenRequest(ctx context.Context, runID, toolCallID string, raw json.RawMessage) (OpenResult, error) {
	if err := s.expireDue(ctx); err != nil {
		return OpenResult{}, err
	}
	return s.openRequest(ctx, raw, canonicalHash("", raw), func(tx *txn) (*asker, error) {
		run, err := s.store.GetRun(ctx, tx, runID)
		if err != nil {
			return nil, notFound(err, "run", runID)
		}
		owner, err := s.runOwner(ctx, tx, run)
		return &asker{chatID: run.ChatID, run: &run, toolCallID: toolCallID, owner: owner}, err
	})
}

// asker is who opens a request: a run of followup's own agent, or a serve
// session (no run; its requestKeys and limit are the session's).
type asker struct {
	chatID     string
	run        *store.Run
	session    *store.Session
	toolCallID string
	owner      Owner
}

// openRequest is OpenRequest for whoever find names, inside the request's
// transaction; hash is canonicalHash("", raw). Its caller expires overdue
// requests first (expireDue), so a retry answered from its request says
// what that request is now (expired by its deadline, not pending).
func (s *Service) openRequest(ctx context.Context, raw json.RawMessage, hash string, find func(tx *txn) (*asker, error)) (OpenResult, error) {
	var res OpenResult
	err := s.write(ctx, func(tx *txn) error {
		a, err := find(tx)
		if err != nil {
			return err
		}
		if err := s.requireActive(ctx, tx, a.chatID); err != nil {
			return err
		}
		// A retry is answered from the request it opened, before the
		// declaration is checked again: its template may be gone by now.
		var key struct {
			RequestKey string `json:"requestKey"`
		}
		if json.Unmarshal(raw, &key) == nil && key.RequestKey != "" {
			if prev, err := s.requestByKey(ctx, tx, a, key.RequestKey); err == nil {
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
		problems = append(problems, s.pastDeadline(decl)...)
		if len(problems) > 0 {
			return problemsError(CodeRequestInvalid, "the input request is invalid", problems)
		}
		if err := s.mayAsk(ctx, tx, a); err != nil {
			return err
		}
		r, err := s.insertRequest(ctx, tx, a, hash, decl)
		if err != nil {
			return err
		}
		if a.run != nil {
			a.run.Questions++
			a.run.UpdatedAt = s.nowMS()
			if err := s.store.UpdateRun(ctx, tx, *a.run); err != nil {
				return err
			}
		}
		tx.emit(requestEvent(r), Event{Kind: EvMessage, ChatID: r.ChatID, RunID: r.RunID.String})
		if r.State == store.ReqPending {
			// Just written: what its view would read back, decl holds.
			res = OpenResult{RequestID: r.ID, Digest: r.Digest, Revision: r.Revision, State: r.State,
				Missing: forms.Missing(decl.Definition, decl.Supplied)}
			return nil
		}
		res, err = s.openResult(ctx, tx, r)
		return err
	})
	return res, err
}

// pastDeadline refuses an expiresAt that has already passed: the request
// would open only to expire, and the screen flash a form nobody can
// answer. A retry of a request opened in time is answered before this,
// from its request (expired by then).
func (s *Service) pastDeadline(decl *forms.Declaration) []forms.Problem {
	if decl == nil || decl.ExpiresAt == nil || decl.ExpiresAt.After(s.now()) {
		return nil
	}
	return []forms.Problem{{Path: "/expiresAt", Message: fmt.Sprintf(
		"expiresAt %s is in the past (it is %s now): give a time to come, or leave expiresAt out to wait until the user answers",
		decl.ExpiresAt.UTC().Format(time.RFC3339), s.now().UTC().Format(time.RFC3339))}}
}

// requestByKey finds the request a's requestKey already opened: keys are
// scoped to their run, or to their serve session.
func (s *Service) requestByKey(ctx context.Context, tx store.Handle, a *asker, key string) (store.Request, error) {
	if a.session != nil {
		return s.store.SessionRequestByKey(ctx, tx, a.session.ID, key)
	}
	return s.store.RequestByKey(ctx, tx, a.run.ID, key)
}

// mayAsk applies the questions policy (docs/input-requests.md): a run asks at most
// QuestionsPerRun questions; a serve session, which may live for a whole
// working day, has at most that many waiting at once.
func (s *Service) mayAsk(ctx context.Context, tx store.Handle, a *asker) error {
	limit := s.policy.QuestionsPerRun
	if a.session != nil {
		n, err := s.store.CountSessionPending(ctx, tx, a.session.ID)
		if err != nil {
			return err
		}
		if n >= limit {
			return &Error{Code: CodeLimitExceeded, Message: "this session already has its limit of questions waiting; wait for an answer or cancel one",
				Details: map[string]any{"limit": limit}}
		}
		return nil
	}
	if store.RunEnded(a.run.State) {
		return errorf(CodeTargetClosed, "the run is %s", a.run.State)
	}
	if _, asked, err := s.treeCredits(ctx, tx, *a.run); err != nil {
		return err
	} else if asked >= limit {
		return &Error{Code: CodeLimitExceeded, Message: "this run has asked its limit of questions",
			Details: map[string]any{"limit": limit}}
	}
	return nil
}

func (s *Service) insertRequest(ctx context.Context, tx *txn, a *asker, hash string, decl *forms.Declaration) (store.Request, error) {
	now := s.nowMS()
	r := store.Request{
		ID: NewID("rq"), ChatID: a.chatID, RequestKey: decl.RequestKey,
		ArgsHash: hash, ToolCallID: a.toolCallID, State: store.ReqPending, Revision: 1,
		Digest: forms.Digest(decl.Definition, decl.Prefill, decl.Supplied), Reason: decl.Reason,
		Title: decl.Definition.Title, Template: decl.Source.Template, CreatedAt: now, UpdatedAt: now,
		OwnerKind: a.owner.Kind, OwnerName: ownerPath(a.owner), OwnerParent: a.owner.ParentRunID,
	}
	if a.run != nil {
		r.RunID = nullString(a.run.ID)
	}
	if a.session != nil {
		r.SessionID = nullString(a.session.ID)
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
		ChatID: a.chatID, RunID: r.RunID, Role: store.RoleRequest, RequestID: nullString(r.ID),
		Visible: true, CreatedAt: now,
	}); err != nil {
		return r, err
	}
	if !decl.Complete() || a.owner.Kind == OwnerMCPServer {
		// A server's question is always asked: only a person answers it.
		return r, nil
	}
	// Nothing to ask: the request completes at once, without a pause.
	return r, s.recordAnswer(ctx, tx, &r, decl.Supplied, forms.Values{}, "", true)
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
