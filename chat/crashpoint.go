package chat

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// CrashEnv names the environment variable of the durability tests' crash
// hook: FOLLOWUP_CRASH_AT=step (or step@N, the Nth time the step is passed)
// makes the process kill itself with SIGKILL right after that step was
// committed — no deferred cleanup, no flushing, as after a power cut of the
// process. Unset, the hook costs one string comparison per step.
const CrashEnv = "FOLLOWUP_CRASH_AT"

// Crash steps, in the order a run passes them. Each one follows a commit
// (or, for model-replied and tool-ran, an effect not yet recorded).
const (
	CrashDrive              = "drive"                // a drive begins: the answer or message is recorded, nothing delivered
	CrashDeliveryUnknown    = "delivery-unknown"     // the delivery attempt is recorded as unknown
	CrashDeliveryWritten    = "delivery-written"     // the history message and "delivered" are committed
	CrashModelReplied       = "model-replied"        // the model answered; its turn is not recorded yet
	CrashTurnRecorded       = "turn-recorded"        // the model's turn is committed
	CrashToolRan            = "tool-ran"             // a tool ran; its result is not recorded yet
	CrashToolResultRecorded = "tool-result-recorded" // the tool's result is committed
	CrashSettled            = "settled"              // the run's wait or end is committed
)

var crash = parseCrash(os.Getenv(CrashEnv))

type crashSpec struct {
	step string
	nth  int64
	hits atomic.Int64
}

func parseCrash(v string) *crashSpec {
	step, n, _ := strings.Cut(strings.TrimSpace(v), "@")
	c := &crashSpec{step: step, nth: 1}
	if k, err := strconv.ParseInt(n, 10, 64); err == nil && k > 0 {
		c.nth = k
	}
	return c
}

// crashPoint kills the process if the crash hook names step.
func crashPoint(step string) {
	if crash.step == "" || crash.step != step || crash.hits.Add(1) != crash.nth {
		return
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way; do nothing more
}
