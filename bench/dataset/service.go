package dataset

import (
	"context"
	"testing"

	"followup/chat"
)

// Open opens a host, for a benchmark or test, on a private copy of a
// database of the given sizes (Default: docs/performance.md's 1,000 chats, 100,000
// messages, 10,000 requests) in the test's temporary directory. The first
// use of a size builds it once for every later run (see Copy).
func Open(tb testing.TB, sz Sizes) (*chat.Service, Summary) {
	tb.Helper()
	path, sum, err := Copy(tb.TempDir(), sz)
	if err != nil {
		tb.Fatal(err)
	}
	svc, err := chat.Open(context.Background(), chat.Options{DBPath: path})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { svc.Close() })
	return svc, sum
}
