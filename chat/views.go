package chat

import (
	"context"
	"encoding/json"
	"time"

	"followup/forms"
	"followup/store"
)

// RequestView is an input request as every surface shows it.
type RequestView struct {
	ID           string           `json:"id"`
	Digest       string           `json:"digest"`
	ChatID       string           `json:"chatId"`
	RunID        string           `json:"runId"`
	RequestKey   string           `json:"requestKey"`
	State        string           `json:"state"`
	ClosedReason string           `json:"closedReason"`
	Revision     int              `json:"revision"`
	Title        string           `json:"title"`
	Reason       string           `json:"reason"`
	Description  string           `json:"description,omitempty"`
	Fields       []forms.Field    `json:"fields"`
	Prefill      forms.Values     `json:"prefill"`
	Supplied     forms.Values     `json:"supplied"`
	Partial      forms.Values     `json:"partial,omitempty"`
	Missing      []string         `json:"missing"`
	Context      json.RawMessage  `json:"context,omitempty"`
	ExpiresAt    *time.Time       `json:"expiresAt,omitempty"`
	CreatedAt    time.Time        `json:"createdAt"`
	Answer       *AnswerView      `json:"answer"`
	Deliveries   []DeliveryView   `json:"deliveries"`
	Proposals    []ProposalView   `json:"proposals,omitempty"`
	Definition   forms.Definition `json:"-"`
}

// AnswerView is a confirmed answer.
type AnswerView struct {
	Values   forms.Values      `json:"values"`
	Origins  map[string]string `json:"origins"`
	Revision int               `json:"revision"`
	Digest   string            `json:"digest"`
}

// DeliveryView is a delivery record.
type DeliveryView struct {
	ID        int64  `json:"id"`
	RequestID string `json:"requestId"`
	Kind      string `json:"kind"`
	State     string `json:"state"`
	Attempts  int    `json:"attempts"`
	LastError string `json:"lastError,omitempty"`
}

func deliveryView(d store.Delivery) DeliveryView {
	return DeliveryView{ID: d.ID, RequestID: d.RequestID, Kind: d.Kind, State: d.State, Attempts: d.Attempts, LastError: d.LastError}
}

// revisionData is a decoded revision.
type revisionData struct {
	def      forms.Definition
	prefill  forms.Values
	supplied forms.Values
}

func loadRevision(ctx context.Context, q store.Q, id string, rev int) (revisionData, error) {
	v, err := q.GetRevision(ctx, id, rev)
	if err != nil {
		return revisionData{}, err
	}
	var d revisionData
	if err := json.Unmarshal([]byte(v.Definition), &d.def); err != nil {
		return d, err
	}
	d.prefill = decodeValues(v.Prefill.String)
	d.supplied = decodeValues(v.Supplied.String)
	return d, nil
}

// decodeValues reads stored values back, normalising numbers the way forms does.
func decodeValues(s string) forms.Values {
	if s == "" {
		return forms.Values{}
	}
	var m map[string]any
	if json.Unmarshal([]byte(s), &m) != nil || m == nil {
		return forms.Values{}
	}
	return forms.Values(m)
}

type partialData struct {
	Values  forms.Values      `json:"values"`
	Origins map[string]string `json:"origins"`
}

func decodePartial(s string) partialData {
	p := partialData{Values: forms.Values{}, Origins: map[string]string{}}
	if s != "" {
		json.Unmarshal([]byte(s), &p)
	}
	if p.Values == nil {
		p.Values = forms.Values{}
	}
	if p.Origins == nil {
		p.Origins = map[string]string{}
	}
	return p
}

// view builds the full view of a request.
func (s *Service) view(ctx context.Context, q store.Q, r store.Request) (RequestView, error) {
	rd, err := loadRevision(ctx, q, r.ID, r.Revision)
	if err != nil {
		return RequestView{}, err
	}
	part := decodePartial(r.Partial.String)
	v := RequestView{
		ID: r.ID, Digest: r.Digest, ChatID: r.ChatID, RunID: r.RunID.String, RequestKey: r.RequestKey,
		State: r.State, ClosedReason: r.ClosedReason, Revision: r.Revision, Title: rd.def.Title,
		Reason: r.Reason, Description: rd.def.Description, Fields: rd.def.Fields, Prefill: rd.prefill,
		Supplied: rd.supplied, Partial: part.Values, CreatedAt: time.UnixMilli(r.CreatedAt).UTC(),
		Definition: rd.def, Deliveries: []DeliveryView{}, Missing: []string{},
	}
	if r.State == store.ReqPending {
		v.Missing = forms.Missing(rd.def, rd.supplied, part.Values)
	}
	if r.Context.Valid {
		v.Context = json.RawMessage(r.Context.String)
	}
	if r.ExpiresAt.Valid {
		t := time.UnixMilli(r.ExpiresAt.Int64).UTC()
		v.ExpiresAt = &t
	}
	if a, err := q.GetAnswer(ctx, r.ID); err == nil {
		av := &AnswerView{Values: decodeValues(a.Values), Revision: a.Revision, Digest: a.Digest}
		json.Unmarshal([]byte(a.Origins), &av.Origins)
		v.Answer = av
	}
	ds, err := q.RequestDeliveries(ctx, r.ID)
	if err != nil {
		return v, err
	}
	for _, d := range ds {
		v.Deliveries = append(v.Deliveries, deliveryView(d))
	}
	ps, err := q.PendingProposals(ctx, r.ID)
	if err != nil {
		return v, err
	}
	for _, p := range ps {
		v.Proposals = append(v.Proposals, proposalView(p))
	}
	return v, nil
}

// Request returns one request with its answer, deliveries and proposals.
func (s *Service) Request(ctx context.Context, id string) (RequestView, error) {
	q := s.st.Read()
	r, err := q.GetRequest(ctx, id)
	if err != nil {
		return RequestView{}, notFound(err, "request", id)
	}
	return s.view(ctx, q, r)
}

// Pending lists open requests, of one chat or of all when chatID is "".
func (s *Service) Pending(ctx context.Context, chatID string) ([]RequestView, error) {
	return s.listRequests(ctx, store.RequestFilter{ChatID: chatID, State: store.ReqPending})
}

// Requests lists a chat's requests in every state.
func (s *Service) Requests(ctx context.Context, chatID string) ([]RequestView, error) {
	return s.listRequests(ctx, store.RequestFilter{ChatID: chatID})
}

func (s *Service) listRequests(ctx context.Context, f store.RequestFilter) ([]RequestView, error) {
	q := s.st.Read()
	rs, err := q.ListRequests(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]RequestView, 0, len(rs))
	for _, r := range rs {
		v, err := s.view(ctx, q, r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func notFound(err error, what, id string) error {
	if err == store.ErrNotFound {
		return errorf(CodeNotFound, "no %s with id %q", what, id)
	}
	return err
}
