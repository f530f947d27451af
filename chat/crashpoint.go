package chat

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// The durability tests kill the process right after a named durable step
// was committed — no deferred cleanup, no flushing, as after a power cut of
// the process — and check that nothing was lost or done twice. The host
// calls Options.Checkpoint with the step's name at each of them; a normal
// build passes nil and pays one nil check per step. A binary built with
// -tags crashhook reads FOLLOWUP_CRASH_AT (crashhook.go) instead.

// CrashEnv names the environment variable a crashhook build reads:
// FOLLOWUP_CRASH_AT=step (or step@N, the Nth time the step is passed).
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
	CrashChildStarted       = "child-started"        // a sub-agent's run is committed, its parent's call still open
)

// CrashAt returns a checkpoint that kills the process with SIGKILL the
// spec'th time it passes a step: spec is "step" or "step@N". An empty spec
// gives nil (no checkpoint).
func CrashAt(spec string) func(step string) {
	name, n, _ := strings.Cut(strings.TrimSpace(spec), "@")
	if name == "" {
		return nil
	}
	nth := int64(1)
	if k, err := strconv.ParseInt(n, 10, 64); err == nil && k > 0 {
		nth = k
	}
	var hits atomic.Int64
	return func(step string) {
		if step != name || hits.Add(1) != nth {
			return
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way; do nothing more
	}
}

// checkpoint reports that a durable step was just passed.
func (s *Service) checkpoint(step string) {
	if s.onStep != nil {
		s.onStep(step)
	}
}
