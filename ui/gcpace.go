package ui

import (
	"os"
	"runtime/debug"
)

// screenGCPercent is the collector's pace in the chat screen. Its live
// heap is a few megabytes, so at Go's default of 100 the collector ran
// after every few megabytes allocated: about every other chat switch, and
// a quarter of a switch's CPU (BenchmarkSwitchChat: 13 ms at 100, 10 at
// 400). At 400 it runs a fifth as often, and the heap it lets grow stays a
// few tens of megabytes: resident memory after 100 switches is measured
// by bench/switch.sh against docs/performance.md's 80 MB.
const screenGCPercent = 400

// paceGC sets the screen's collector pace, unless GOGC says otherwise (a
// user's or a test's choice stands), and returns what puts it back.
func paceGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(screenGCPercent)
	return func() { debug.SetGCPercent(old) }
}
