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
// It holds nothing: the handle says where each query runs.
type Queries struct{}
