package mcp

import (
	"errors"
	"strconv"
	"testing"
)

// TestListPagedIsBounded: a server that never stops paging is read for
// listPages pages at most, a long listing is cut at listMax items, and a
// failed page keeps what came before it.
func TestListPagedIsBounded(t *testing.T) {
	calls := 0
	endless := func(cursor string) ([]int, string, error) {
		calls++
		return nil, "next" + strconv.Itoa(calls), nil // empty pages, forever
	}
	if got, err := listPaged(endless); err != nil || len(got) != 0 || calls != listPages {
		t.Fatalf("endless empty pages: %d items, %v, %d calls (want %d)", len(got), err, calls, listPages)
	}
	calls = 0
	long := func(cursor string) ([]int, string, error) {
		calls++
		return make([]int, 120), "more", nil
	}
	if got, _ := listPaged(long); len(got) != listMax || calls != 5 {
		t.Fatalf("long listing: %d items after %d pages, want %d after 5", len(got), calls, listMax)
	}
	boom := errors.New("boom")
	calls = 0
	failing := func(cursor string) ([]int, string, error) {
		calls++
		if cursor == "" {
			return []int{1, 2}, "c2", nil
		}
		return nil, "", boom
	}
	if got, err := listPaged(failing); !errors.Is(err, boom) || len(got) != 2 {
		t.Fatalf("failed second page: %v %v", got, err)
	}
}
