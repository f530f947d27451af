//go:build !crashhook

package chat

// defaultCheckpoint is the checkpoint of a Service whose options name none:
// in a normal build, none (see crashpoint.go).
var defaultCheckpoint func(step string)
