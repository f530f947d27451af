package store

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strings"
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

// InsertProposal records an undecided proposal.
func (Queries) InsertProposal(ctx context.Context, h Handle, p Proposal) error {
	p.DecidedAt = sql.NullInt64{}
	return insertRow(ctx, h, "proposals", proposalCols, &p)
}

// GetProposal reads one proposal.
func (Queries) GetProposal(ctx context.Context, h Handle, id string) (Proposal, error) {
	return scan[Proposal](h.QueryRowContext(ctx, `SELECT `+proposalCols+` FROM proposals WHERE id = ?`, id))
}

const proposalCols = `id, request_id, kind, state, base_digest, payload, created_at, decided_at`

func (p *Proposal) dest() []any {
	return []any{&p.ID, &p.RequestID, &p.Kind, &p.State, &p.BaseDigest, &p.Payload, &p.CreatedAt, &p.DecidedAt}
}

// DecideProposal moves a pending proposal to a final state.
func (Queries) DecideProposal(ctx context.Context, h Handle, id, state string, now int64) error {
	return expectOne(h.ExecContext(ctx,
		`UPDATE proposals SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'`, state, now, id))
}

// SupersedeProposals closes every pending proposal of a request.
func (Queries) SupersedeProposals(ctx context.Context, h Handle, requestID string, now int64) error {
	_, err := h.ExecContext(ctx,
		`UPDATE proposals SET state = 'superseded', decided_at = ? WHERE request_id = ? AND state = 'pending'`, now, requestID)
	return err
}

// PendingProposalsOf lists the undecided proposals of the named requests,
// oldest first, by request id.
func (Queries) PendingProposalsOf(ctx context.Context, h Handle, ids []string) (map[string][]Proposal, error) {
	out := map[string][]Proposal{}
	return out, eachIn(ctx, h, ids, func(marks string) string {
		return `SELECT ` + proposalCols + ` FROM proposals WHERE request_id IN (` + marks + `) AND state = 'pending' ORDER BY created_at, id`
	}, func(sc rowScanner) error {
		p, err := scan[Proposal](sc)
		out[p.RequestID] = append(out[p.RequestID], p)
		return err
	})
}

// PendingListProposals lists the undecided proposals of the requests in
// the pending list (of one chat, or of all when chatID is ""), oldest first,
// by request id. It reads the waiting proposals from their own index, so
// it costs what waits, not the length of the list or of the history.
func (Queries) PendingListProposals(ctx context.Context, h Handle, chatID string) (map[string][]Proposal, error) {
	// The waiting proposals are few: they are read from their own index and
	// each is looked up in the list. One chat's list is short: its entries
	// are walked and each looked up among the waiting proposals.
	query := `SELECT ` + prefixed("p.", proposalCols) + ` FROM proposals AS p INDEXED BY proposals_waiting
		CROSS JOIN pending_items AS i ON i.request_id = p.request_id WHERE p.state = 'pending'`
	var args []any
	if chatID != "" {
		query = `SELECT ` + prefixed("p.", proposalCols) + ` FROM pending_items AS i INDEXED BY pending_items_chat
		CROSS JOIN proposals AS p INDEXED BY proposals_waiting ON p.request_id = i.request_id AND p.state = 'pending' WHERE i.chat_id = ?`
		args = append(args, chatID)
	}
	out := map[string][]Proposal{}
	err := eachRow(ctx, h, func(sc rowScanner) error {
		p, err := scan[Proposal](sc)
		out[p.RequestID] = append(out[p.RequestID], p)
		return err
	}, query, args...)
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b Proposal) int {
			return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), strings.Compare(a.ID, b.ID))
		})
	}
	return out, err
}
