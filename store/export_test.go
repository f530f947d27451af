package store

// QueryPlan is queryPlan, for the package's external tests.
var QueryPlan = queryPlan

// ResumableRunsQuery is the query ResumableRuns runs, for plan checks.
var ResumableRunsQuery = resumableRuns("r.id")

// qs runs the package tests' queries.
var qs = NewQueries()
