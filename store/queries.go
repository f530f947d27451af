package store

// Queries is every aggregate's typed queries. Each method takes the Handle
// it runs on, so one transaction can span aggregates:
//
//	err := st.Write(ctx, func(tx store.Handle) error {
//		run, err := queries.GetRun(ctx, tx, id)
//		…
//		return queries.UpdateRun(ctx, tx, run)
//	})
//
// A caller that needs only some aggregates can ask for just their
// interfaces.
type Queries interface {
	ChatStore
	RunStore
	MessageStore
	RequestStore
	RevisionStore
	PendingStore
	DraftStore
	ComposerStore
	AnswerStore
	ProposalStore
	DeliveryStore
	ReceiptStore
	TemplateStore
	SessionStore
	MCPStore
}

// NewQueries returns the SQLite queries of followup's schema.
func NewQueries() Queries { return queries{} }

// queries implements Queries; it holds nothing: the handle says where each
// query runs.
type queries struct{}
