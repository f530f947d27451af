package mcpserve

import (
	"os"
	"runtime/debug"
)

// serveGCPercent paces the collector while serving over HTTP: it collects
// when the heap has grown by four times what was live after the last
// collection, not once.
//
// The go-sdk (v1.8.0) decodes every JSON value through a new segmentio
// decoder, and each decoder's first read allocates a 32 KiB buffer: about
// six per message (the batch probe, the message and its method, the
// request's _meta twice, its params), nearly nine tenths of the bytes the
// server allocates. The buffers die at once, but at the default pace they
// set off a collection every few dozen calls, each scanning every
// session's goroutines. Measured with 100 sessions asking at once: the
// server's CPU a request 1.20 → 0.90 ms, resident memory 56 → about 85 MB
// (docs/performance.md, the serve rows).
const serveGCPercent = 400

// collectLessOften sets serveGCPercent, unless the user set GOGC.
func collectLessOften() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}
