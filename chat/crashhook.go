//go:build crashhook

package chat

import (
	"os"
	"strconv"
	"time"
)

// A binary built with -tags crashhook is the durability tests' child: it
// crashes where FOLLOWUP_CRASH_AT says, and it starts its work at the
// instant FOLLOWUP_TEST_START_AT names (unix nanoseconds), so the race
// tests' children start together. Normal builds have neither.

// defaultCheckpoint is the checkpoint of a Service whose options name none.
var defaultCheckpoint = CrashAt(os.Getenv(CrashEnv))

func init() {
	if at, err := strconv.ParseInt(os.Getenv("FOLLOWUP_TEST_START_AT"), 10, 64); err == nil {
		time.Sleep(time.Until(time.Unix(0, at)))
	}
}
