package chat

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"followup/forms"
	"followup/store"
)

// RequestView is an input request as every surface shows it.
type RequestView struct {
	RequestItem
	Answer     *AnswerView    `json:"answer"`
	Deliveries []DeliveryView `json:"deliveries"`
	Proposals  []ProposalView `json:"proposals,omitempty"`
	// Unsent is what the user had typed, unconfirmed, when the request
	// closed without an answer (cancelled, or expired for any reason: its
	// asker withdrew it or disconnected, the task was stopped…): the form
	// is gone, what was typed stays readable.
	Unsent     forms.Values     `json:"unsent,omitempty"`
	Definition forms.Definition `json:"-"`
}

// RequestItem is the part of a request's view that derives from its own
// row and its current revision. A pending request's item is also stored,
// encoded, as its entry in the pending list (see pending.go); embedding it
// in RequestView keeps both encodings the same, key for key. Items already
// stored keep the shape they were written with: a change to what an item
// holds needs a migration that asks for them to be rebuilt
// (INSERT OR IGNORE INTO pending_items_stale (one) VALUES (1)).
type RequestItem struct {
	ID           string          `json:"id"`
	Digest       string          `json:"digest"`
	ChatID       string          `json:"chatId"`
	RunID        string          `json:"runId"`
	RequestKey   string          `json:"requestKey"`
	State        RequestState    `json:"state"`
	ClosedReason string          `json:"closedReason"`
	Revision     int             `json:"revision"`
	Title        string          `json:"title"`
	Reason       string          `json:"reason"`
	Description  string          `json:"description,omitempty"`
	Fields       []forms.Field   `json:"fields"`
	Prefill      forms.Values    `json:"prefill"`
	Supplied     forms.Values    `json:"supplied"`
	Partial      forms.Values    `json:"partial,omitempty"`
	Missing      []string        `json:"missing"`
	Context      json.RawMessage `json:"context,omitempty"`
	ExpiresAt    *time.Time      `json:"expiresAt,omitempty"`
	CreatedAt    time.Time       `json:"createdAt"`
	Owner        Owner           `json:"owner"`
	// Origin is the skill active in the run when it was asked.
	Origin *Origin `json:"origin,omitempty"`
	// Mode, URL and Tool are set on an MCP server's question: form or
	// url (a link for the user to visit, never fetched by followup; an
	// answer of {} says done), and the server's tool whose call asked.
	Mode string `json:"mode,omitempty"`
	URL  string `json:"url,omitempty"`
	Tool string `json:"tool,omitempty"`
	// Live marks a question asked during a call that is still being made
	// (elicitation/create): it lives with the connection of the process
	// driving the run, and expires disconnected if that process goes.
	Live bool `json:"live,omitempty"`
}

// AnswerView is a confirmed answer.
type AnswerView struct {
	Values   forms.Values      `json:"values"`
	Origins  map[string]string `json:"origins"`
	Revision int               `json:"revision"`
	Digest   string            `json:"digest"`
}

// DeliveryView is a delivery record. Target is who receives it: agent
// (the run's model) or mcp_server (the server that asked, with the Action
// it is sent: accept, decline or cancel, and an accept's Content).
type DeliveryView struct {
	ID        int64  `json:"id"`
	RequestID string `json:"requestId"`
	Kind      string `json:"kind"`
	State     string `json:"state"`
	Attempts  int    `json:"attempts"`
	LastError string `json:"lastError,omitempty"`
	Target    string `json:"target"`
	Action    string `json:"action,omitempty"`
	// Content is what an accept sent the server: the answer, with the
	// defaults of its schema filled in for fields left out (MCP's rule).
	Content map[string]any `json:"content,omitempty"`
}

func deliveryView(d store.Delivery) DeliveryView {
	v := DeliveryView{ID: d.ID, RequestID: d.RequestID, Kind: d.Kind, State: d.State, Attempts: d.Attempts, LastError: d.LastError,
		Target: d.Target}
	if d.Target == store.TargetMCPServer {
		v.Action, v.Content = serverReply(d.Payload)
	}
	return v
}

// revisionData is a decoded revision.
type revisionData struct {
	def      forms.Definition
	prefill  forms.Values
	supplied forms.Values
}

func (s *Service) loadRevision(ctx context.Context, tx store.Handle, id string, rev int) (revisionData, error) {
	v, err := s.store.GetRevision(ctx, tx, id, rev)
	if err != nil {
		return revisionData{}, err
	}
	return decodeRevision(v)
}

func decodeRevision(v store.Revision) (revisionData, error) {
	var d revisionData
	if err := json.Unmarshal([]byte(v.Definition), &d.def); err != nil {
		return d, err
	}
	d.prefill = decodeValues(v.Prefill.String)
	d.supplied = decodeValues(v.Supplied.String)
	return d, nil
}

// decodeValues reads stored values back ({} for none).
func decodeValues(s string) forms.Values {
	var m forms.Values
	if json.Unmarshal([]byte(s), &m) != nil || m == nil {
		return forms.Values{}
	}
	return m
}

type partialData struct {
	Values  forms.Values      `json:"values"`
	Origins map[string]string `json:"origins"`
}

func decodePartial(s string) partialData {
	var p partialData
	json.Unmarshal([]byte(s), &p)
	if p.Values == nil {
		p.Values = forms.Values{}
	}
	if p.Origins == nil {
		p.Origins = map[string]string{}
	}
	return p
}

// view builds the full view of a request.
func (s *Service) view(ctx context.Context, tx store.Handle, r store.Request) (RequestView, error) {
	vs, err := s.views(ctx, tx, []store.Request{r}, nil)
	if err != nil {
		return RequestView{}, err
	}
	return vs[0], nil
}

// views builds the full views of many requests with one query per related
// table (revision, answer, deliveries, proposals), not several per request.
// revs are their current revisions, read here when nil.
func (s *Service) views(ctx context.Context, tx store.Handle, rs []store.Request, revs map[string]store.Revision) ([]RequestView, error) {
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	var err error
	if revs == nil {
		if revs, err = s.store.CurrentRevisions(ctx, tx, ids); err != nil {
			return nil, err
		}
	}
	answers, err := s.store.AnswersOf(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	deliveries, err := s.store.DeliveriesOf(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	proposals, err := s.store.PendingProposalsOf(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]RequestView, 0, len(rs))
	// Requests of one template or one agent form share a revision: decode
	// each distinct one once. Views only read what they share.
	decoded := map[string]revisionData{}
	for _, r := range rs {
		rev, ok := revs[r.ID]
		if !ok {
			return nil, store.ErrNotFound
		}
		rd, ok := decoded[rev.Digest]
		if !ok {
			var err error
			if rd, err = decodeRevision(rev); err != nil {
				return nil, err
			}
			decoded[rev.Digest] = rd
		}
		v := RequestView{RequestItem: buildItem(r, rd), Definition: rd.def, Deliveries: []DeliveryView{}}
		if a, ok := answers[r.ID]; ok {
			av := &AnswerView{Values: decodeValues(a.Values), Revision: a.Revision, Digest: a.Digest}
			json.Unmarshal([]byte(a.Origins), &av.Origins)
			v.Answer = av
		}
		for _, d := range deliveries[r.ID] {
			v.Deliveries = append(v.Deliveries, deliveryView(d))
		}
		v.Proposals = proposalViews(proposals[r.ID])
		if r.State == store.ReqExpired || r.State == store.ReqCancelled {
			if v.Unsent, err = s.unsent(ctx, tx, r); err != nil {
				return nil, err
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// msTime is a stored time (milliseconds since the epoch) as views hold it:
// UTC, so that JSON shows RFC 3339 everywhere (docs/cli.md).
func msTime(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// msTimeOf is a stored time that may be unset (nil).
func msTimeOf(ms sql.NullInt64) *time.Time {
	if !ms.Valid {
		return nil
	}
	t := msTime(ms.Int64)
	return &t
}

// buildItem is a request's item: its row and its current revision, decoded.
func buildItem(r store.Request, rd revisionData) RequestItem {
	part := decodePartial(r.Partial.String)
	v := RequestItem{
		ID: r.ID, Digest: r.Digest, ChatID: r.ChatID, RunID: r.RunID.String, RequestKey: r.RequestKey,
		State: RequestState(r.State), ClosedReason: r.ClosedReason, Revision: r.Revision, Title: rd.def.Title,
		Reason: r.Reason, Description: rd.def.Description, Fields: rd.def.Fields, Prefill: rd.prefill,
		Supplied: rd.supplied, Partial: part.Values, CreatedAt: msTime(r.CreatedAt),
		Missing: []string{}, Owner: ownerOf(r),
	}
	if r.State == store.ReqPending {
		v.Missing = forms.Missing(rd.def, rd.supplied, part.Values)
	}
	if r.Context.Valid {
		v.Context = json.RawMessage(r.Context.String)
	}
	if r.Origin.Valid {
		json.Unmarshal([]byte(r.Origin.String), &v.Origin)
	}
	if r.OwnerKind == store.OwnerMCPServer {
		liftMCP(&v) // mcprequests.go
	}
	v.ExpiresAt = msTimeOf(r.ExpiresAt)
	return v
}

// Request returns one request with its answer, deliveries and proposals.
func (s *Service) Request(ctx context.Context, id string) (RequestView, error) {
	if err := s.expireDue(ctx); err != nil {
		return RequestView{}, err
	}
	rd := s.reader()
	r, err := s.store.GetRequest(ctx, rd, id)
	if err != nil {
		return RequestView{}, notFound(err, "request", id)
	}
	return s.view(ctx, rd, r)
}

// Pending lists open requests, of one chat or of all when chatID is "".
//
// Across all chats, archived chats are left out: their questions can no
// longer be answered.
func (s *Service) Pending(ctx context.Context, chatID string) ([]RequestView, error) {
	return s.listRequests(ctx, store.RequestFilter{ChatID: chatID, State: store.ReqPending, ActiveChats: chatID == ""})
}

// Requests lists a chat's requests in every state.
func (s *Service) Requests(ctx context.Context, chatID string) ([]RequestView, error) {
	return s.listRequests(ctx, store.RequestFilter{ChatID: chatID})
}

func (s *Service) listRequests(ctx context.Context, f store.RequestFilter) ([]RequestView, error) {
	if err := s.expireDue(ctx); err != nil {
		return nil, err
	}
	var out []RequestView
	err := s.db.ReadTx(ctx, func(tx store.Handle) error {
		rs, vs, err := s.store.ListRequestsWithRevisions(ctx, tx, f)
		if err != nil {
			return err
		}
		revs := make(map[string]store.Revision, len(vs))
		for _, v := range vs {
			revs[v.RequestID] = v
		}
		out, err = s.views(ctx, tx, rs, revs)
		return err
	})
	if out == nil {
		out = []RequestView{}
	}
	return out, err
}

func notFound(err error, what, id string) error {
	if err == store.ErrNotFound {
		return errorf(CodeNotFound, "no %s with id %q", what, id)
	}
	return err
}
