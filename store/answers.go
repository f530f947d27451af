package store

import (
	"context"
	"database/sql"
	"errors"
)

// Draft is the user's unfinished values for one request revision.
type Draft struct {
	RequestID string
	Revision  int
	Values    string // JSON object
	Edited    bool
	UpdatedAt int64
}

// UpsertDraft saves a draft, replacing the previous save of that revision.
func (q Q) UpsertDraft(ctx context.Context, d Draft) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO drafts (request_id, revision, vals, edited, updated_at) VALUES (?, ?, ?, ?, ?)
		 ON CONFLICT (request_id, revision) DO UPDATE SET vals = excluded.vals, edited = excluded.edited,
		   updated_at = excluded.updated_at`,
		d.RequestID, d.Revision, d.Values, d.Edited, d.UpdatedAt)
	return err
}

// GetDraft reads the draft of one revision.
func (q Q) GetDraft(ctx context.Context, requestID string, revision int) (Draft, error) {
	var d Draft
	err := q.db.QueryRowContext(ctx,
		`SELECT request_id, revision, vals, edited, updated_at FROM drafts WHERE request_id = ? AND revision = ?`,
		requestID, revision).Scan(&d.RequestID, &d.Revision, &d.Values, &d.Edited, &d.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return d, err
}

// Answer is a confirmed answer.
type Answer struct {
	RequestID string
	Revision  int
	Digest    string
	Values    string // JSON object
	Origins   string // JSON object field -> "declaration" | "response"
	CommandID string
	CreatedAt int64
}

// InsertAnswer records a confirmed answer.
func (q Q) InsertAnswer(ctx context.Context, a Answer) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO answers (request_id, revision, digest, vals, origins, command_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		a.RequestID, a.Revision, a.Digest, a.Values, a.Origins, a.CommandID, a.CreatedAt)
	return err
}

// GetAnswer reads a request's answer.
func (q Q) GetAnswer(ctx context.Context, requestID string) (Answer, error) {
	var a Answer
	err := q.db.QueryRowContext(ctx,
		`SELECT request_id, revision, digest, vals, origins, command_id, created_at FROM answers WHERE request_id = ?`,
		requestID).Scan(&a.RequestID, &a.Revision, &a.Digest, &a.Values, &a.Origins, &a.CommandID, &a.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return a, err
}

// Proposal states.
const (
	ProposalPending    = "pending"
	ProposalAccepted   = "accepted"
	ProposalRejected   = "rejected"
	ProposalSuperseded = "superseded"
)

// Proposal is a change the agent wants that waits for the user.
type Proposal struct {
	ID         string
	RequestID  string
	Kind       string // resolve | replace
	State      string
	BaseDigest string
	Payload    string // JSON
	CreatedAt  int64
	DecidedAt  sql.NullInt64
}

// InsertProposal records a proposal.
func (q Q) InsertProposal(ctx context.Context, p Proposal) error {
	_, err := q.db.ExecContext(ctx,
		`INSERT INTO proposals (id, request_id, kind, state, base_digest, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.RequestID, p.Kind, p.State, p.BaseDigest, p.Payload, p.CreatedAt)
	return err
}

// GetProposal reads one proposal.
func (q Q) GetProposal(ctx context.Context, id string) (Proposal, error) {
	return scanProposal(q.db.QueryRowContext(ctx,
		`SELECT id, request_id, kind, state, base_digest, payload, created_at, decided_at FROM proposals WHERE id = ?`, id))
}

func scanProposal(sc interface{ Scan(...any) error }) (Proposal, error) {
	var p Proposal
	err := sc.Scan(&p.ID, &p.RequestID, &p.Kind, &p.State, &p.BaseDigest, &p.Payload, &p.CreatedAt, &p.DecidedAt)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return p, err
}

// DecideProposal moves a pending proposal to a final state.
func (q Q) DecideProposal(ctx context.Context, id, state string, now int64) error {
	return expectOne(q.db.ExecContext(ctx,
		`UPDATE proposals SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'`, state, now, id))
}

// SupersedeProposals closes every pending proposal of a request.
func (q Q) SupersedeProposals(ctx context.Context, requestID string, now int64) error {
	_, err := q.db.ExecContext(ctx,
		`UPDATE proposals SET state = 'superseded', decided_at = ? WHERE request_id = ? AND state = 'pending'`, now, requestID)
	return err
}
