package store

import (
	"context"
	"database/sql"
	"errors"
)

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
