package store

import "context"

// QueryPlan is queryPlan, for the package's external tests.
var QueryPlan = queryPlan

// ResumableRunsQuery is the query ResumableRuns runs, for plan checks.
var ResumableRunsQuery = resumableRuns("r.id")

// qs runs the package tests' queries.
var qs = Queries{}

// SchemaVersion is the number of the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}
