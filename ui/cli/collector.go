package cli

import (
	"os"
	"runtime/debug"
	"time"
)

// paceCollector lets the heap grow 400% between collections, not Go's
// default 100%, for d (for good when d is 0), unless the user set GOGC.
// Two of followup's processes set off collections that cost their users
// (docs/performance.md):
//
//   - The chat screen, for its first second. A Go program's first heap
//     goal is 4 MB; opening the database, reading the chat and building
//     its form pass it, and that one collection held the first frame back
//     by 11–15 ms on a 2-core machine.
//   - `mcp serve --http`, while it serves. The go-sdk (v1.8.0) decodes
//     every JSON value through a new segmentio decoder whose first read
//     allocates a 32 KiB buffer, about six per message and nearly nine
//     tenths of the bytes the server allocates. They die at once, but at
//     the default pace they set off a collection every few dozen calls,
//     each scanning every session's goroutines. With 100 sessions asking
//     at once: the server's CPU a request 1.20 → 0.90 ms, resident memory
//     56 → about 85 MB.
func paceCollector(d time.Duration) {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(400)
	if d > 0 {
		time.AfterFunc(d, func() { debug.SetGCPercent(100) })
	}
}
