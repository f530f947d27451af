package store

// QueryPlan is queryPlan, for the package's external tests.
var QueryPlan = queryPlan
